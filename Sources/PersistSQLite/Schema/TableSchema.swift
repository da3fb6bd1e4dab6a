import Persist
import PersistSQL

/// One table that holds an item type: its key, its attribute columns, and the SQL the store runs
/// on it, built once per schema version so that hot paths never build SQL.
final class TableSchema: Sendable {
    /// The table name, which is the item type.
    let name: String
    /// The name quoted as an SQL identifier.
    let quoted: String
    let key: TableKey
    /// The attribute columns, in table order (the key and generated columns excluded).
    let columns: [ColumnSchema]
    /// Attribute name → index in ``columns``; names match exactly.
    let columnIndex: [String: Int]
    /// Every name SQLite would consider taken in this table (case-folded), → the name as declared.
    let takenNames: [String: String]
    /// Whether the table is STRICT (new columns must then declare a type).
    let isStrict: Bool
    /// ``WriteStrategy/checked`` when SQLite (the affinity or collation of legacy columns or of the
    /// key) or the table's triggers may change a write, so that such writes are read back.
    let writes: WriteStrategy
    /// Whether the table has triggers, which may change any row a write stores: every write to it
    /// is read back.
    let hasTriggers: Bool

    /// `key, c1, c2, …`: the key is result column 0, column `i` is result column `i + 1`.
    let selectList: String
    /// The condition selecting one row by key: parameter 1 is the identifier, parameter 2 (when
    /// ``TableKey/needsGuard``) the storage class name it must have.
    let keyCondition: String
    let selectByKey: String
    let insertAll: String
    /// `INSERT … ON CONFLICT (key) DO UPDATE …`; `nil` for rowid-keyed tables, which update first.
    let upsert: String?
    /// `UPDATE … WHERE <keyCondition>` setting every column, whose parameters follow the key's
    /// (see ``keyBindings(for:)``); `nil` without columns.
    let update: String?
    /// Whether some legacy column has a DEFAULT, which inserts leave in effect for missing attributes.
    let hasDefaults: Bool
    let deleteByKey: String
    let deleteAll: String
    let exists: String
    /// The ORDER BY term for identifiers, ascending.
    let keyOrder: String
    /// How entity plans map onto this table's columns, per plan: cached with the schema version.
    let entityLayouts = EntityLayoutCache<SQLiteEntityLayout>()

    init(name: String, key: TableKey, columns: [ColumnSchema], takenNames: [String: String], isStrict: Bool,
         hasTriggers: Bool = false) {
        self.name = name
        self.hasTriggers = hasTriggers
        self.quoted = SQLName.quoted(name)
        self.key = key
        self.columns = columns
        self.takenNames = takenNames
        self.isStrict = isStrict
        var index: [String: Int] = [:]
        for (offset, column) in columns.enumerated() { index[column.name] = offset }
        columnIndex = index
        writes = hasTriggers || key.needsGuard || columns.contains { column in
            if case .legacy(let affinity) = column.storage { return affinity != .none }
            return false
        } ? .checked : .direct

        let keySQL = key.sql
        let table = quoted
        selectList = ([keySQL] + columns.map(\.quoted)).joined(separator: ", ")
        keyCondition = key.needsGuard
            ? "\(keySQL) = ?1 AND typeof(\(keySQL)) = ?2 AND \(keySQL) = ?1 COLLATE BINARY"
            : "\(keySQL) = ?1"
        selectByKey = "SELECT \(selectList) FROM \(table) WHERE \(keyCondition)"
        insertAll = Self.insert(into: table, key: keySQL, columns: columns)
        if key.isRowid {
            upsert = nil
        } else if columns.isEmpty {
            upsert = insertAll + " ON CONFLICT (\(keySQL)) DO NOTHING"
        } else {
            let assignments = columns.map { "\($0.quoted) = excluded.\($0.quoted)" }.joined(separator: ", ")
            upsert = insertAll + " ON CONFLICT (\(keySQL)) DO UPDATE SET \(assignments)"
        }
        if columns.isEmpty {
            update = nil
        } else {
            let first = key.needsGuard ? 3 : 2
            let assignments = columns.enumerated().map { "\($1.quoted) = ?\($0 + first)" }.joined(separator: ", ")
            update = "UPDATE OR ABORT \(table) SET \(assignments) WHERE \(keyCondition)"
        }
        hasDefaults = columns.contains(where: \.hasDefault)
        deleteByKey = "DELETE FROM \(table) WHERE \(keyCondition)"
        deleteAll = "DELETE FROM \(table)"
        exists = "SELECT EXISTS (SELECT 1 FROM \(table))"
        if case .column(_, _, true) = key {
            keyOrder = "\(keySQL) COLLATE BINARY"
        } else {
            keyOrder = keySQL
        }
    }

    /// `INSERT OR ABORT INTO table (key, columns…) VALUES (?1, ?2, …)`: `OR ABORT` overrides a
    /// legacy table's `ON CONFLICT REPLACE`, which would delete the other row silently.
    static func insert(into table: String, key: String, columns: [ColumnSchema]) -> String {
        let names = ([key] + columns.map(\.quoted)).joined(separator: ", ")
        let parameters = (1...(columns.count + 1)).map { "?\($0)" }.joined(separator: ", ")
        return "INSERT OR ABORT INTO \(table) (\(names)) VALUES (\(parameters))"
    }

    /// The same table with more columns.
    func adding(_ newColumns: [ColumnSchema]) -> TableSchema {
        var taken = takenNames
        for column in newColumns { taken[SQLName.folded(column.name)] = column.name }
        return TableSchema(name: name, key: key, columns: columns + newColumns, takenNames: taken, isStrict: isStrict,
                           hasTriggers: hasTriggers)
    }

    /// The same table with the column at `index` replaced.
    func replacing(columnAt index: Int, with column: ColumnSchema) -> TableSchema {
        var replaced = columns
        replaced[index] = column
        return TableSchema(name: name, key: key, columns: replaced, takenNames: takenNames, isStrict: isStrict,
                           hasTriggers: hasTriggers)
    }

    /// Whether the table has the form of the tables the store creates: keyed by
    /// ``DatabaseSchema/createdKeyColumn``.
    var isInCreatedForm: Bool {
        if case .column(let name, _, _) = key { return name == DatabaseSchema.createdKeyColumn }
        return false
    }

    /// The parameters selecting the row of `id`; `nil` when no row of this table can have it.
    func keyBindings(for id: ItemID) -> [SQLBinding]? {
        guard let key = keyParameters(for: id) else { return nil }
        return key.storageClass.map { [key.value, .text($0)] } ?? [key.value]
    }

    /// The parameters of ``keyBindings(for:)`` without an array: the key, and the storage class
    /// bound second when the key needs a guard.
    func keyParameters(for id: ItemID) -> (value: SQLBinding, storageClass: String?)? {
        let binding: SQLBinding
        let storageName: String
        switch id {
        case .int(let value): (binding, storageName) = (.int(value), "integer")
        case .string(let value): (binding, storageName) = (.text(value), "text")
        case .bytes(let value): (binding, storageName) = (.blob(value), "blob")
        case .composite: return nil
        }
        if key.isRowid && storageName != "integer" { return nil }
        return (binding, key.needsGuard ? storageName : nil)
    }
}

extension TableSchema: SQLTable {
    var sqlName: String { quoted }
    var keySQL: String { key.sql }

    func column(_ attribute: String) -> ColumnSchema? {
        columnIndex[attribute].map { columns[$0] }
    }
}

extension ColumnSchema: SQLColumn {}
