import Foundation
import Persist

/// Turns result rows into items.
struct RowDecoder {
    let table: TableSchema
    let path: String

    /// The item in the current row of a statement selecting ``TableSchema/selectList``.
    func item(_ statement: SQLiteStatement) throws -> Item {
        let id = try identifier(statement)
        let columns = table.columns
        var attributes: [String: Value] = Dictionary(minimumCapacity: columns.count)
        for offset in columns.indices {
            let index = Int32(offset + 1)
            guard let storage = statement.storageClass(index) else { continue }
            attributes[columns[offset].name] = try value(statement, index, storage, columns[offset].storage, offset, id)
        }
        return Item(itemType: table.name, id: id, attributes: attributes)
    }

    func identifier(_ statement: SQLiteStatement) throws -> ItemID {
        switch statement.storageClass(0) {
        case .integer: return .int(statement.int64(0))
        case .text: return .string(statement.text(0))
        case .blob: return .bytes(statement.blob(0))
        case .real:
            throw corruptKey("the REAL \(statement.double(0))")
        case nil:
            throw corruptKey("NULL")
        }
    }

    private func corruptKey(_ found: String) -> DataStoreError {
        DataStoreError(
            .corrupt,
            "a row of table \(String(reflecting: table.name)) in the SQLite database at \(path) has \(found) as its "
                + "key \(table.key.sql), which cannot be an identifier (integers, strings or bytes); give the row "
                + "a key, or delete it, with the sqlite3 shell",
            path: path)
    }

    /// The value of result column `index`, whose storage class is `storage`, read for the column
    /// at `offset` in ``TableSchema/columns``, which holds `columnStorage`.
    func value(
        _ statement: SQLiteStatement, _ index: Int32, _ storage: StorageClass, _ columnStorage: ColumnSchema.Storage,
        _ offset: Int, _ id: @autoclosure () -> ItemID
    ) throws -> Value {
        let kind: ColumnKind
        switch columnStorage {
        case .typed(let typed):
            kind = typed
        case .mixed:
            guard storage == .blob else { return Self.native(statement, index, storage) }
            guard let value = MixedCodec.value(ofBlob: statement.blob(index)) else {
                throw corrupt(table.columns[offset], id(), "a BLOB that is no tagged value")
            }
            return value
        case .legacy:
            return Self.native(statement, index, storage)
        }
        switch (kind, storage) {
        case (.bool, .integer):
            return .bool(statement.int64(index) != 0)
        case (.number, .integer):
            return .int(statement.int64(index))
        case (.number, .real):
            return .double(statement.double(index))
        case (.date, .real):
            return .date(Date(timeIntervalSinceReferenceDate: statement.double(index)))
        case (.date, .integer):
            return .date(Date(timeIntervalSinceReferenceDate: Double(statement.int64(index))))
        case (.number, .text) where statement.textEquals(index, "NaN"):
            return .double(.nan)
        case (.date, .text) where statement.textEquals(index, "NaN"):
            return .date(Date(timeIntervalSinceReferenceDate: .nan))
        case (.string, .text):
            return .string(statement.text(index))
        case (.bytes, .blob):
            return .bytes(statement.blob(index))
        case (.array, .blob), (.object, .blob):
            let decoded: Value
            do {
                decoded = try BinaryValueCoding.decode(statement.blob(index))
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

    /// A value as SQLite stores it: INTEGER, REAL, TEXT or BLOB.
    static func native(_ statement: SQLiteStatement, _ index: Int32, _ storage: StorageClass) -> Value {
        switch storage {
        case .integer: .int(statement.int64(index))
        case .real: .double(statement.double(index))
        case .text: .string(statement.text(index))
        case .blob: .bytes(statement.blob(index))
        }
    }

    private func corrupt(_ column: ColumnSchema, _ id: ItemID, _ found: String) -> DataStoreError {
        let kind: String
        switch column.storage {
        case .typed(let columnKind): kind = columnKind.plural
        case .mixed: kind = "values of every kind"
        case .legacy: kind = "values"
        }
        return DataStoreError(
            .corrupt,
            "the item \(id) of type \(String(reflecting: table.name)) in the SQLite database at \(path) holds "
                + "\(found) in column \(String(reflecting: column.name)), which the store created for \(kind); "
                + "fix or delete the value with the sqlite3 shell",
            path: path, items: [ItemReference(itemType: table.name, id: id)])
    }
}

extension RowDecoder {
    /// The columns in ascending byte order of their names: the order of a row's attributes.
    func columnsByName() -> [Int] {
        table.columns.indices.sorted { SQLName.bytesPrecede(table.columns[$0].name, table.columns[$1].name) }
    }

    /// The row in the current row of a statement selecting ``TableSchema/selectList``: its values in
    /// the order `byName` gives, its shape from `shapes` (made over the same order).
    func row(_ statement: SQLiteStatement, byName: [Int], shapes: inout RowShapes) throws -> ItemRow {
        guard byName.count <= RowShapes.maximumColumns else { return ItemRow(try item(statement)) }
        let id = try identifier(statement)
        var values: [Value] = []
        values.reserveCapacity(byName.count)
        var present: UInt64 = 0
        for (position, offset) in byName.enumerated() {
            let index = Int32(offset + 1)
            guard let storage = statement.storageClass(index) else { continue }
            values.append(try value(statement, index, storage, table.columns[offset].storage, offset, id))
            present |= 1 << UInt64(position)
        }
        let names = shapes.shape(present: present)
        return ItemRow(itemType: table.name, id: id, names: names, values: values)
    }
}
