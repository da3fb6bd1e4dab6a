/// The shapes of one table's rows, keyed by which of its columns hold a value: one bit per column,
/// in ascending UTF-8 order of their attribute names. A reader streaming a table for a migration
/// makes each shape once and shares it among the rows that have it.
///
/// ```swift
/// var shapes = RowShapes(sortedNames: ["city", "name"])
/// let cityOnly = shapes.shape(present: 0b01)   // ["city"]
/// ```
package struct RowShapes {
    /// The most columns a table may have to be keyed this way (one bit each).
    package static let maximumColumns = 64

    /// The attribute names of the columns, in ascending UTF-8 byte order.
    private let names: [String]
    private var byPresence: [UInt64: AttributeNames] = [:]

    /// Shapes over columns named `names`, which must be in ascending UTF-8 byte order and at most
    /// ``maximumColumns``.
    package init(sortedNames names: [String]) {
        self.names = names
    }

    /// The shape of a row whose columns at the set bits of `present` hold values.
    package mutating func shape(present: UInt64) -> AttributeNames {
        if let known = byPresence[present] { return known }
        let shape = AttributeNames(sorted: names.indices.filter { present & (1 << UInt64($0)) != 0 }.map { names[$0] })
        byPresence[present] = shape
        return shape
    }
}
