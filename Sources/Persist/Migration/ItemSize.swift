/// The size a migration reports for the items it copies: the bytes of the identifier and of each
/// attribute value as stores keep them — UTF-8 bytes of strings, the bytes of byte values, 8 for
/// a number or a date, 1 for a boolean, and the sum of the elements of arrays and objects (object
/// keys included). Attribute names are not counted.
enum ItemSize {
    static func bytes(of row: ItemRow) -> Int {
        var total = bytes(of: row.id)
        for value in row.values { total += bytes(of: value) }
        return total
    }

    /// The bytes of an identifier: of each component, for a composite one.
    static func bytes(of id: ItemID) -> Int {
        switch id {
        case .int: 8
        case .string(let string): string.utf8.count
        case .bytes(let bytes): bytes.count
        case .composite(let components): components.reduce(0) { $0 + bytes(of: $1) }
        }
    }

    static func bytes(of value: Value) -> Int {
        switch value {
        case .null: 0
        case .bool: 1
        case .int, .double, .date: 8
        case .decimal(let decimal): DecimalText.text(decimal).utf8.count
        case .string(let string): string.utf8.count
        case .bytes(let bytes): bytes.count
        case .array(let elements): elements.reduce(0) { $0 + bytes(of: $1) }
        case .object(let entries): entries.reduce(0) { $0 + $1.key.utf8.count + bytes(of: $1.value) }
        }
    }
}
