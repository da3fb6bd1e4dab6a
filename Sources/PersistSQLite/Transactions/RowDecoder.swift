import Foundation
import Persist
import PersistSQL

/// Turns result rows into items.
struct RowDecoder {
    let table: TableSchema
    let path: String

    /// The item in the current row of a statement selecting ``TableSchema/selectList``.
    func item(_ statement: SQLiteStatement) throws -> Item {
        let id = try identifier(statement)
        let columns = table.columns
        let first = table.key.width
        let attributes = try AttributeAssembly.attributes(over: table.columnIndex) { offset in
            guard let column = statement.column(Int32(offset + first)) else { return nil }
            return try value(column, columns[offset].storage, offset, id)
        }
        return Item(itemType: table.name, id: id, nonNullAttributes: attributes)
    }

    func identifier(_ statement: SQLiteStatement) throws -> ItemID {
        guard case .composite(let columns) = table.key else { return try component(statement, 0) }
        var components: [ItemID] = []
        components.reserveCapacity(columns.count)
        for index in columns.indices { components.append(try component(statement, Int32(index))) }
        return .composite(components)
    }

    /// The identifier, or component of a composite identifier, in result column `index`.
    private func component(_ statement: SQLiteStatement, _ index: Int32) throws -> ItemID {
        guard let key = statement.column(index) else { throw corruptKey("NULL") }
        switch key.storage {
        case .integer: return .int(key.int64)
        case .text:
            guard let text = key.text else { throw corruptKey("TEXT that is not valid UTF-8") }
            return .string(text)
        case .blob:
            guard table.taggedKeys else { return .bytes(key.blob) }
            guard let id = TaggedKeyCodec.identifier(ofBlob: key.blob) else {
                throw corruptKey("a BLOB that is no tagged identifier")
            }
            return id
        case .real: throw corruptKey("the REAL \(key.double)")
        }
    }

    private func corruptKey(_ found: String) -> DataStoreError {
        DataStoreError(
            .corrupt,
            "a row of table \(String(reflecting: table.name)) in the SQLite database at \(path) has \(found) as its "
                + "key \(table.key.described), which cannot be an identifier (integers, strings or bytes); give the row "
                + "a key, or delete it, with the sqlite3 shell",
            path: path)
    }

    /// The value of a non-null result column, read for the column at `offset` in
    /// ``TableSchema/columns``, which holds `columnStorage`.
    func value(
        _ column: SQLiteColumn, _ columnStorage: ColumnSchema.Storage, _ offset: Int, _ id: @autoclosure () -> ItemID
    ) throws -> Value {
        let kind: ColumnKind
        let storage = column.storage
        switch columnStorage {
        case .typed(let typed):
            kind = typed
        case .mixed:
            guard storage == .blob else { return try native(column, offset, id()) }
            guard let value = MixedCodec.value(ofBlob: column.blob) else {
                throw corrupt(table.columns[offset], id(), "a BLOB that is no tagged value")
            }
            return value
        case .legacy where table.columns[offset].dateForm != nil && storage == .text:
            let value = try native(column, offset, id())
            if case .string(let text) = value, let date = DateText.date(text) { return .date(date) }
            return value
        case .legacy where table.columns[offset].holdsJSON && storage == .text:
            let value = try native(column, offset, id())
            if case .string(let text) = value { return JSONText.value(ofText: text) }
            return value
        case .legacy where table.columns[offset].readsDecimals:
            return try decimalReading(column, offset, id())
        case .legacy:
            return try native(column, offset, id())
        }
        switch (kind, storage) {
        case (.bool, .integer):
            return .bool(column.int64 != 0)
        case (.number, .integer):
            return .int(column.int64)
        case (.number, .real):
            return .double(column.double)
        case (.date, .real):
            return .date(Date(timeIntervalSinceReferenceDate: column.double))
        case (.date, .integer):
            return .date(Date(timeIntervalSinceReferenceDate: Double(column.int64)))
        case (.number, .text) where column.textEquals("NaN"):
            return .double(.nan)
        case (.date, .text) where column.textEquals("NaN"):
            return .date(Date(timeIntervalSinceReferenceDate: .nan))
        case (.string, .text):
            return try native(column, offset, id())
        case (.decimal, .integer):
            return .decimal(Decimal(column.int64))
        case (.decimal, .real):
            guard let decimal = DecimalCodec.decimal(ofReal: column.double) else {
                throw corrupt(table.columns[offset], id(), "the REAL \(column.double), which no decimal is")
            }
            return .decimal(decimal)
        case (.decimal, .text) where column.textEquals("NaN"):
            return .decimal(.nan)
        case (.decimal, .blob), (.decimal, .text):
            let bytes = column.storage == .blob ? column.blob : Array((column.text ?? "").utf8)
            guard let decimal = String(validating: bytes, as: UTF8.self).flatMap(DecimalText.parse) else {
                throw corrupt(table.columns[offset], id(), "digits that are no exact decimal")
            }
            return .decimal(decimal)
        case (.bytes, .blob):
            return .bytes(column.blob)
        case (.array, .blob), (.object, .blob):
            let decoded: Value
            do {
                decoded = try BinaryValueCoding.decode(column.blob)
            } catch let error as DataStoreError {
                throw corrupt(table.columns[offset], id(), "bytes that are not a valid encoded value (\(error.message))")
            }
            guard ColumnKind(of: decoded) == kind else {
                throw corrupt(table.columns[offset], id(), "an encoded \(decoded.kind.rawValue)")
            }
            return decoded
        default:
            throw corrupt(table.columns[offset], id(), "a value of storage class \(storage)")
        }
    }

    /// A value of a legacy `NUMERIC(p,s)` column: its numbers (and the digits Persist wrote as a
    /// BLOB) as decimals, a REAL as the number its 15-digit text spells; text and other bytes as they are.
    private func decimalReading(_ column: SQLiteColumn, _ offset: Int, _ id: ItemID) throws -> Value {
        switch column.storage {
        case .integer: return .decimal(Decimal(column.int64))
        case .real: return DecimalCodec.decimal(ofReal: column.double).map(Value.decimal) ?? .double(column.double)
        case .blob:
            let blob = column.blob
            return String(validating: blob, as: UTF8.self).flatMap(DecimalText.parse).map(Value.decimal) ?? .bytes(blob)
        case .text: return try native(column, offset, id)
        }
    }

    /// The value as SQLite stores it; TEXT that is not valid UTF-8, which no string holds, is
    /// damage the caller must see, not a string with replacement characters.
    private func native(_ column: SQLiteColumn, _ offset: Int, _ id: ItemID) throws -> Value {
        if let value = column.native { return value }
        throw corrupt(table.columns[offset], id, "TEXT that is not valid UTF-8 (Persist's strings are UTF-8)")
    }

    private func corrupt(_ column: ColumnSchema, _ id: ItemID, _ found: String) -> DataStoreError {
        let created: String
        switch column.storage {
        case .typed(let columnKind): created = ", which the store created for \(columnKind.plural)"
        case .mixed: created = ", which the store created for values of every kind"
        case .legacy: created = ""
        }
        return DataStoreError(
            .corrupt,
            "the item \(id) of type \(String(reflecting: table.name)) in the SQLite database at \(path) holds "
                + "\(found) in column \(String(reflecting: column.name))\(created); fix or delete the value with the "
                + "sqlite3 shell",
            path: path, items: [ItemReference(itemType: table.name, id: id)])
    }
}

extension RowDecoder {
    /// The columns in ascending byte order of their names: the order of a row's attributes.
    func columnsByName() -> [Int] {
        table.columns.indices.sorted { ByteOrder.precedes(table.columns[$0].name, table.columns[$1].name) }
    }

    /// The row in the current row of a statement selecting ``TableSchema/selectList``: its values in
    /// the order `byName` gives, its shape from `shapes` (made over the same order).
    func row(_ statement: SQLiteStatement, byName: [Int], shapes: inout RowShapes) throws -> ItemRow {
        guard byName.count <= RowShapes.maximumColumns else { return ItemRow(try item(statement)) }
        let id = try identifier(statement)
        var values: [Value] = []
        values.reserveCapacity(byName.count)
        var present: UInt64 = 0
        let first = table.key.width
        for (position, offset) in byName.enumerated() {
            guard let column = statement.column(Int32(offset + first)) else { continue }
            values.append(try value(column, table.columns[offset].storage, offset, id))
            present |= 1 << UInt64(position)
        }
        let names = shapes.shape(present: present)
        return ItemRow(itemType: table.name, id: id, names: names, values: values)
    }
}
