/// The canonical bytes of a whole item — item type, identifier and attributes — used to compare
/// and checksum items across stores.
///
/// The layout is: the item type as text, the identifier as a ``BinaryValueCoding`` value (`.int`,
/// `.string` or `.bytes`), a varint attribute count, then each attribute in ascending byte order of
/// its name, as the name's text and the value in ``BinaryValueCoding``. Equal items (``Item``'s
/// `==`) give equal bytes.
///
/// ```swift
/// let bytes = CanonicalItemEncoding.encode(Item(itemType: "Note", id: 1, attributes: ["v": 2]))
/// ```
package enum CanonicalItemEncoding {
    /// The canonical bytes of `item`.
    package static func encode(_ item: Item) -> [UInt8] {
        var buffer: [UInt8] = []
        encode(item, into: &buffer)
        return buffer
    }

    /// Appends the canonical bytes of `item` to `buffer`.
    package static func encode(_ item: Item, into buffer: inout [UInt8]) {
        BinaryValueCoding.appendLengthPrefixed(item.itemType, to: &buffer)
        BinaryValueCoding.encode(item.id.value, into: &buffer)
        BinaryValueCoding.appendVarint(UInt64(item.attributes.count), to: &buffer)
        for name in BinaryValueCoding.sortedKeys(item.attributes) {
            BinaryValueCoding.appendLengthPrefixed(name, to: &buffer)
            BinaryValueCoding.encode(item.attributes[name] ?? .null, into: &buffer)
        }
    }

    /// Appends the canonical bytes of a row: the same bytes as for its item.
    package static func encode(_ row: ItemRow, into buffer: inout [UInt8]) {
        BinaryValueCoding.appendLengthPrefixed(row.itemType, to: &buffer)
        BinaryValueCoding.encode(row.id.value, into: &buffer)
        BinaryValueCoding.appendVarint(UInt64(row.values.count), to: &buffer)
        for (name, value) in zip(row.names.bytes, row.values) {
            BinaryValueCoding.appendVarint(UInt64(name.count), to: &buffer)
            buffer.append(contentsOf: name)
            BinaryValueCoding.encode(value, into: &buffer)
        }
    }
}
