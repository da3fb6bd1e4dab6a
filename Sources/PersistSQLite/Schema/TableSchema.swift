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
    /// Whether the table is one the store created whose key column holds tagged BLOBs, so that
    /// it can hold composite identifiers in ``ItemID``'s order (see ``TaggedKeyCodec``).
    let taggedKeys: Bool

    /// `key, c1, c2, …`: the key is result column 0 (a composite key result columns 0 to
    /// `key.width - 1`), column `i` is result column `i + key.width`.
    let selectList: String
    /// The condition selecting one row by key: parameters 1… are the key's values, the next ones
    /// (when ``TableKey/needsGuard``) the storage class names they must have (see
    /// ``TableKey/condition``).
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
         hasTriggers: Bool = false, taggedKeys: Bool = false) {
        self.name = name
        self.taggedKeys = taggedKeys
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
        keyCondition = key.condition
        selectByKey = "SELECT \(selectList) FROM \(table) WHERE \(keyCondition)"
        insertAll = Self.insert(into: table, key: key, columns: columns)
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
            let first = key.parameterCount + 1
            let assignments = columns.enumerated().map { "\($1.quoted) = ?\($0 + first)" }.joined(separator: ", ")
            update = "UPDATE OR ABORT \(table) SET \(assignments) WHERE \(keyCondition)"
        }
        hasDefaults = columns.contains(where: \.hasDefault)
        deleteByKey = "DELETE FROM \(table) WHERE \(keyCondition)"
        deleteAll = "DELETE FROM \(table)"
        exists = "SELECT EXISTS (SELECT 1 FROM \(table))"
        keyOrder = key.order
    }

    /// `INSERT OR ABORT INTO table (key, columns…) VALUES (?1, ?2, …)`: `OR ABORT` overrides a
    /// legacy table's `ON CONFLICT REPLACE`, which would delete the other row silently.
    static func insert(into table: String, key: TableKey, columns: [ColumnSchema]) -> String {
        let names = ([key.sql] + columns.map(\.quoted)).joined(separator: ", ")
        let parameters = (1...(columns.count + key.width)).map { "?\($0)" }.joined(separator: ", ")
        return "INSERT OR ABORT INTO \(table) (\(names)) VALUES (\(parameters))"
    }

    /// The same table with more columns.
    func adding(_ newColumns: [ColumnSchema]) -> TableSchema {
        var taken = takenNames
        for column in newColumns { taken[SQLName.folded(column.name)] = column.name }
        return TableSchema(name: name, key: key, columns: columns + newColumns, takenNames: taken, isStrict: isStrict,
                           hasTriggers: hasTriggers, taggedKeys: taggedKeys)
    }

    /// The same table with the column at `index` replaced.
    func replacing(columnAt index: Int, with column: ColumnSchema) -> TableSchema {
        var replaced = columns
        replaced[index] = column
        return TableSchema(name: name, key: key, columns: replaced, takenNames: takenNames, isStrict: isStrict,
                           hasTriggers: hasTriggers, taggedKeys: taggedKeys)
    }

    /// The same table with tagged keys (see ``TaggedKeyCodec``).
    func taggingKeys() -> TableSchema {
        TableSchema(name: name, key: key, columns: columns, takenNames: takenNames, isStrict: isStrict,
                    hasTriggers: hasTriggers, taggedKeys: true)
    }

    /// The same table with only `column`, for statements that read one attribute.
    func projection(onto column: ColumnSchema) -> TableSchema {
        TableSchema(name: name, key: key, columns: [column], takenNames: takenNames, isStrict: isStrict,
                    taggedKeys: taggedKeys)
    }

    /// Whether the table has the form of the tables the store creates: keyed by
    /// ``DatabaseSchema/createdKeyColumn``.
    var isInCreatedForm: Bool {
        if case .column(let name, _, _) = key { return name == DatabaseSchema.createdKeyColumn }
        return false
    }

    /// The parameters selecting the row of `id`; `nil` when no row of this table can have it.
    func keyBindings(for id: ItemID) -> [SQLBinding]? {
        guard case .composite(let columns) = key else {
            guard let key = keyParameters(for: id) else { return nil }
            return key.storageClass.map { [key.value, .text($0)] } ?? [key.value]
        }
        guard case .composite(let components) = id, components.count == columns.count else { return nil }
        var values: [SQLBinding] = []
        var classes: [SQLBinding] = []
        for component in components {
            guard let (binding, storageName) = Self.binding(ofComponent: component) else { return nil }
            values.append(binding)
            classes.append(.text(storageName))
        }
        return key.needsGuard ? values + classes : values
    }

    /// The parameters of ``keyBindings(for:)`` for a key of one column, without an array: the
    /// key, and the storage class bound second when the key needs a guard; `nil` for a composite key.
    func keyParameters(for id: ItemID) -> (value: SQLBinding, storageClass: String?)? {
        if taggedKeys { return (TaggedKeyCodec.binding(id), nil) }
        guard !key.isComposite, let (binding, storageName) = Self.binding(ofComponent: id) else { return nil }
        if key.isRowid && storageName != "integer" { return nil }
        return (binding, key.needsGuard ? storageName : nil)
    }

    /// The values a write binds for the key of `id`, in key order; `nil` when `id` does not have
    /// the key's shape or kind (see ``keyMismatch(_:)``).
    func keyValues(for id: ItemID) -> [SQLBinding]? {
        switch key {
        case .composite(let columns):
            guard case .composite(let components) = id, components.count == columns.count else { return nil }
            var values: [SQLBinding] = []
            for component in components {
                guard let (binding, _) = Self.binding(ofComponent: component) else { return nil }
                values.append(binding)
            }
            return values
        case .rowid:
            guard case .int(let value) = id else { return nil }
            return [.int(value)]
        case .column:
            if taggedKeys { return [TaggedKeyCodec.binding(id)] }
            if id.isComposite { return nil }
            return [ValueCodec.binding(id)]
        }
    }

    /// Why `id` cannot identify a row of this table, for a message that names the table; `nil`
    /// when it can (``keyValues(for:)`` is not `nil`).
    func keyMismatch(_ id: ItemID) -> String? {
        guard keyValues(for: id) == nil else { return nil }
        switch key {
        case .composite(let columns):
            return "its primary key has the \(columns.count) columns \(key.described), so an identifier of it is "
                + "composite with \(columns.count) components, each an integer, a string or bytes; use "
                + "ItemID(components:) with one value per key column, in key order"
        case .rowid:
            return "it identifies its rows by rowid, an integer; use an integer identifier"
        case .column:
            return "its primary key is the one column \(key.described), so an identifier of it is an integer, a "
                + "string or bytes, not composite"
        }
    }

    /// The binding and storage class name of one identifier component; `nil` for a composite one.
    private static func binding(ofComponent id: ItemID) -> (SQLBinding, String)? {
        switch id {
        case .int(let value): (.int(value), "integer")
        case .string(let value): (.text(value), "text")
        case .bytes(let value): (.blob(value), "blob")
        case .composite: nil
        }
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
