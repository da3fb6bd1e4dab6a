import Persist
import PersistSQL

/// How the rows of a table are identified, and the SQL that names a row by its identifier.
///
/// Every keyed statement takes the identifier as the one parameter `$1`, whatever the key's
/// shape, so that statements keep one layout:
///
/// - **One key column**: `$1` is the identifier in the column's type.
/// - **A composite primary key**: identifiers are ``ItemID/composite(_:)`` of the key columns'
///   values in key order (`pg_constraint.conkey`), and `$1` is a `text[]` of the components'
///   text forms, each cast back to its column's type (`"a" = ($1::text[])[1]::int4 AND …`),
///   which the key's index still serves.
/// - **No primary key**: identifiers are row locations, `.int(block × 65536 + offset)` of the
///   row's `ctid`. They tell rows apart within a snapshot (duplicate rows included) but are not
///   stable: an update, a `VACUUM FULL` or a `CLUSTER` by anyone moves rows. Such tables are read
///   only.
struct TableKey: Sendable {
    enum Shape: Sendable, Equatable {
        case column
        case composite
        case rowLocation
    }

    let shape: Shape
    /// The key columns in key order: one, several, or none for a keyless table.
    let columns: [ColumnSchema]
    /// For a keyless table, the name of the row location's result column, after the table's columns.
    let locatorName: String?

    /// The result column name of a keyless table's row location.
    static let locatorColumn = "persist_row_location"
    /// A `ctid` as the integer identifier `block × 65536 + offset`.
    static let locatorExpression = "((ctid::text::point)[0]::int8 * 65536 + (ctid::text::point)[1]::int8)"

    /// The key of a table keyed by one column.
    init(column: ColumnSchema) {
        shape = .column
        columns = [column]
        locatorName = nil
    }

    /// The key of a table whose primary key has several columns, in key order.
    init(composite columns: [ColumnSchema]) {
        shape = .composite
        self.columns = columns
        locatorName = nil
    }

    /// The key of a table without a primary key; `taken` are the table's column names, which the
    /// row location's result column must not take.
    init(rowLocationAvoiding taken: Set<String>) {
        shape = .rowLocation
        columns = []
        var name = Self.locatorColumn
        var suffix = 1
        while taken.contains(name) {
            suffix += 1
            name = "\(Self.locatorColumn)_\(suffix)"
        }
        locatorName = name
    }

    /// The column standing for a keyless table's row location in ``TableSchema/key``.
    static func locatorColumn(named name: String) -> ColumnSchema {
        ColumnSchema(attribute: name, name: name, type: .bigint, typeOID: PGType.int8, isCreated: false)
    }

    var isSingleColumn: Bool { shape == .column }
    var isComposite: Bool { shape == .composite }
    var isKeyless: Bool { shape == .rowLocation }

    /// What `SELECT` lists: every column, then a keyless table's row location.
    var selectList: String {
        guard let locatorName else { return "*" }
        return "*, \(Self.locatorExpression) AS \(SQLName.quoted(locatorName))"
    }

    /// `"a", "b"`: the key columns, for `ON CONFLICT (…)` and column lists.
    var columnList: String {
        columns.map(\.quoted).joined(separator: ", ")
    }

    /// One expression per row that is unique within a statement, for `key IN (SELECT key …)`:
    /// the key column, the text of a composite key's row value, or the `ctid`.
    var selection: String {
        switch shape {
        case .column: columns.first?.quoted ?? "ctid"
        case .composite: "ROW(\(columnList))::text"
        case .rowLocation: "ctid"
        }
    }

    /// The condition choosing the row whose identifier is the parameter `parameter` (`$1`).
    func match(_ parameter: String) -> String {
        switch shape {
        case .column:
            return "\(columns.first?.quoted ?? "ctid") = \(parameter)"
        case .composite:
            return zip(columns, values(parameter)).map { "\($0.quoted) = \($1)" }.joined(separator: " AND ")
        case .rowLocation:
            return "ctid = ('(' || (\(parameter)::int8 / 65536) || ',' || (\(parameter)::int8 % 65536) || ')')::tid"
        }
    }

    /// The value of each key column, in key order, from the identifier parameter `parameter`.
    func values(_ parameter: String) -> [String] {
        switch shape {
        case .column: return [parameter]
        case .composite:
            return columns.enumerated().map { offset, column in
                "(\(parameter)::text[])[\(offset + 1)]::\(Self.castType(column.type))"
            }
        case .rowLocation: return []
        }
    }

    /// The ORDER BY term of identifiers, ascending: component by component for a composite key.
    var order: String {
        switch shape {
        case .column, .composite: columns.map(OrderTerms.ascending).joined(separator: ", ")
        case .rowLocation: "ctid ASC"
        }
    }

    /// The identifier parameter of a composite or keyless table (see ``TableSchema/keyParameter(_:)``).
    func parameter(_ id: ItemID) -> PGValue? {
        switch shape {
        case .column:
            return columns.first?.type.encodeID(id)
        case .composite:
            guard case .composite(let components) = id, components.count == columns.count else { return nil }
            var texts: [PGValue] = []
            texts.reserveCapacity(components.count)
            for (component, column) in zip(components, columns) {
                guard column.type.encodeID(component) != nil, let text = Self.text(component, column.type) else {
                    return nil
                }
                texts.append(.text(text))
            }
            return PGArrayEncoder.array(of: texts, elementType: PGType.text)
        case .rowLocation:
            guard case .int(let location) = id, location >= 0 else { return nil }
            return .int8(location)
        }
    }

    /// The binary value of each key column for `id`, in key order (for COPY); `nil` when the key
    /// cannot hold it. Empty for a keyless table.
    func fields(_ id: ItemID) -> [PGValue]? {
        switch shape {
        case .column:
            return columns.first?.type.encodeID(id).map { [$0] }
        case .composite:
            guard case .composite(let components) = id, components.count == columns.count else { return nil }
            var fields: [PGValue] = []
            for (component, column) in zip(components, columns) {
                guard let field = column.type.encodeID(component) else { return nil }
                fields.append(field)
            }
            return fields
        case .rowLocation:
            return []
        }
    }

    /// The text form PostgreSQL reads a component in, for a column of `type`.
    static func text(_ component: ItemID, _ type: ColumnType) -> String? {
        if type == .mixed { return hex(MixedValueCoding.encode(component.value)) }
        switch component {
        case .int(let int): return String(int)
        case .string(let string): return string
        case .bytes(let bytes): return hex(bytes)
        case .composite: return nil
        }
    }

    static func hex<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "x")]
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The type a composite key's component is cast to from text (identifiers fit only these).
    static func castType(_ type: ColumnType) -> String {
        switch type {
        case .smallint: "int2"
        case .integer: "int4"
        case .bigint: "int8"
        case .character: "bpchar"
        case .uuid: "uuid"
        case .bytea, .mixed: "bytea"
        default: "text"
        }
    }

    /// The key for messages: `"id"`, or `("a", "b")`.
    var described: String {
        switch shape {
        case .column: columns.first?.quoted ?? "(none)"
        case .composite: "(\(columnList))"
        case .rowLocation: "(none: the table has no primary key)"
        }
    }
}
