import Foundation

/// The attribute names of a row shape: distinct names in ascending order of their UTF-8 bytes, with
/// those bytes kept for comparisons. Rows of one shape share one instance, so that a consumer can
/// recognise a shape it has seen by identity and reuse what it worked out for it (a column
/// mapping, a validated name list) instead of hashing names item by item.
///
/// ```swift
/// let row = ItemRow(Item(itemType: "Note", id: 1, attributes: ["title": "Hi", "body": "…"]))
/// print(row.names.names)   // ["body", "title"]
/// ```
public final class AttributeNames: Sendable {
    /// The names, in ascending UTF-8 byte order.
    ///
    /// ```swift
    /// let hasText = ItemRow(item).names.names.contains("text")
    /// ```
    public let names: [String]
    /// The UTF-8 bytes of each name.
    package let bytes: [[UInt8]]
    /// Every name's bytes one after the other, and where each ends: for comparing a record's
    /// names with a shape in one pass over one buffer.
    package let flat: [UInt8]
    package let ends: [Int]

    /// A shape of `names`, which must be distinct and in ascending UTF-8 byte order.
    package init(sorted names: [String]) {
        self.names = names
        bytes = names.map { Array($0.utf8) }
        flat = bytes.flatMap { $0 }
        var end = 0
        ends = bytes.map { name in
            end += name.count
            return end
        }
    }

    /// The shape of an attribute dictionary.
    package convenience init(of attributes: [String: Value]) {
        self.init(sorted: BinaryValueCoding.sortedKeys(attributes))
    }

    /// How many names.
    ///
    /// ```swift
    /// let attributeCount = ItemRow(item).names.count
    /// ```
    public var count: Int { names.count }

    /// Whether the names are exactly the bytes of `record` in `ranges`, in this order.
    package func matches(_ ranges: [Range<Int>], in record: UnsafeRawBufferPointer) -> Bool {
        guard ranges.count == ends.count else { return false }
        guard let base = record.baseAddress else { return ranges.allSatisfy(\.isEmpty) && flat.isEmpty }
        return flat.withUnsafeBytes { flat in
            var start = 0
            for (range, end) in zip(ranges, ends) {
                guard end - start == range.count else { return false }
                if let names = flat.baseAddress, range.count > 0,
                   memcmp(names + start, base + range.lowerBound, range.count) != 0 {
                    return false
                }
                start = end
            }
            return true
        }
    }
}

/// An item as engines stream it in bulk: its attribute values in the order of a shared
/// ``AttributeNames`` shape, with no dictionary per item. ``Migration`` reads rows from a
/// ``RowStreamingReader`` and loads them through a ``BulkLoadWriter``.
///
/// Rows made outside the package come from items, with ``init(_:)``; the engines of the package
/// also share one shape among the rows that have it.
///
/// ```swift
/// let row = ItemRow(Item(itemType: "Note", id: 1, attributes: ["text": "hi"]))
/// print(row.itemType, row.id, row.names.names, row.values)
/// ```
public struct ItemRow: Sendable {
    /// The item's type.
    ///
    /// ```swift
    /// let type = ItemRow(item).itemType
    /// ```
    public let itemType: String
    /// The item's identifier.
    ///
    /// ```swift
    /// let id = ItemRow(item).id
    /// ```
    public let id: ItemID
    /// The shape: which attributes the row has.
    ///
    /// ```swift
    /// let names = ItemRow(item).names.names
    /// ```
    public let names: AttributeNames
    /// One value per name, in the same order; never `.null`.
    ///
    /// ```swift
    /// let row = ItemRow(item)
    /// for (name, value) in zip(row.names.names, row.values) { print(name, value) }
    /// ```
    public let values: [Value]

    /// A row; `values` has one non-null value per name of `names`.
    package init(itemType: String, id: ItemID, names: AttributeNames, values: [Value]) {
        self.itemType = itemType
        self.id = id
        self.names = names
        self.values = values
    }

    /// The row of an item, with a shape of its own.
    ///
    /// ```swift
    /// let row = ItemRow(Item(itemType: "Note", id: 1, attributes: ["text": "hi"]))
    /// ```
    public init(_ item: Item) {
        itemType = item.itemType
        id = item.id
        names = AttributeNames(of: item.attributes)
        values = names.names.map { item.attributes[$0] ?? .null }
    }

    /// The row as an item.
    ///
    /// ```swift
    /// let same = ItemRow(item).item == item   // true
    /// ```
    public var item: Item {
        var attributes: [String: Value] = [:]
        attributes.reserveCapacity(values.count)
        for (name, value) in zip(names.names, values) { attributes[name] = value }
        return Item(itemType: itemType, id: id, attributes: attributes)
    }

    /// The reference naming the row's item.
    package var reference: ItemReference { ItemReference(itemType: itemType, id: id) }
}
