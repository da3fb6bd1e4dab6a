/// Builds an item's attributes from a row over a table's name → column index, without hashing a
/// name per value.
///
/// `Dictionary.mapValues` copies the index's hash table as it is (same seed, same buckets), so the
/// attributes take the table's names in place; only absent attributes cost a hash, to remove them.
/// The SQL stores' row decoders read items this way, so that a lookup by identifier
/// costs about what reading the row's columns costs.
///
/// ```swift
/// let index = ["name": 0, "rating": 1]
/// let row: [Value?] = ["Pizza Place", nil]
/// let attributes = AttributeAssembly.attributes(over: index) { row[$0] }
/// // ["name": "Pizza Place"]
/// ```
package enum AttributeAssembly {
    /// Up to this many absent attributes are removed one by one; past it, the present ones are
    /// copied into a new dictionary, which costs a hash each.
    @usableFromInline static let removalLimit = 4

    /// The attributes of one row: `value(offset)` for each column offset in `columnIndex`, where
    /// `nil` (or `.null`) is an absent attribute. Columns are read in the index's order, not in
    /// the order of their offsets. Inlinable, so that each decoder's closure is specialized in.
    @inlinable package static func attributes(
        over columnIndex: [String: Int], _ value: (Int) throws -> Value?
    ) rethrows -> [String: Value] {
        var absent = 0
        var attributes = try columnIndex.mapValues { offset -> Value in
            if let found = try value(offset), !found.isNull { return found }
            absent += 1
            return .null
        }
        guard absent > 0 else { return attributes }
        guard absent <= removalLimit else { return attributes.filter { !$0.value.isNull } }
        for _ in 0..<absent {
            guard let index = attributes.values.firstIndex(where: \.isNull) else { break }
            attributes.remove(at: index)
        }
        return attributes
    }
}
