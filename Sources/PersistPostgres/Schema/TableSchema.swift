import Persist
import PersistSQL

/// One table holding an item type: its key, its attribute columns, and the SQL the store runs on
/// it, built once per schema so that hot paths never build SQL.
final class TableSchema: Sendable {
    /// The key column of the tables the store creates.
    static let createdKeyColumn = "persist_id"

    /// The item type.
    let itemType: String
    /// The table's name in SQL (the item type, or a shortened name for a long one).
    let name: String
    /// `"schema"."table"`.
    let qualified: String
    /// The key column of a table keyed by one column; the first key column of a composite key; for
    /// a keyless table, the row location's result column (see ``TableKey``).
    let key: ColumnSchema
    /// How the table's rows are identified, and the SQL that names a row by its identifier.
    let rowKey: TableKey
    /// The kind of the key of a table the store created; `nil` for an adopted table.
    let keyKind: KeyKind?
    /// The attribute columns, in table order.
    let columns: [ColumnSchema]
    /// Attribute → index in ``columns``.
    let columnIndex: [String: Int]
    /// Every column name of the table, attributes or not (generated columns, columns of types
    /// Persist does not map): a new column must not take one.
    let takenNames: Set<String>
    /// Attributes that name a column Persist cannot write (the key of an adopted table, a
    /// generated column, a column of an unmapped type), with the reason.
    let reservedAttributes: [String: String]
    /// The reason ``reservedAttributes`` gives for a column of a type Persist does not map.
    static let unmappedReason = "it names a column of a type Persist does not map to values"

    /// The columns of types Persist does not map to values, in the table's order: their values
    /// are in no item.
    var unmappedColumns: [String] {
        layout.map(\.name).filter { reservedAttributes[$0] == Self.unmappedReason }
    }
    /// ``WriteStrategy/checked`` when a write may be refused or changed by the table itself (an
    /// adopted table, or columns, constraints, triggers, rules or row security other SQL added to a
    /// created one): such writes run in a savepoint and are read back.
    let writes: WriteStrategy
    /// Whether inserts and saves must do without `ON CONFLICT (key)`: the key is `DEFERRABLE`,
    /// which PostgreSQL refuses as an arbiter, or a `NOT NULL` column without a default has a type
    /// Persist does not map, so the row an upsert proposes would break it even when the key is
    /// taken (PostgreSQL checks `NOT NULL` before it looks for a conflict). Such a table is
    /// guarded; a save updates the row, and inserts only when there was none.
    let avoidsConflictClause: Bool

    /// Every column of the table in the table's order, as `SELECT *` returns them, with what each
    /// holds: results are checked against it, so that a column another connection added or
    /// retyped is noticed.
    let layout: [ResultColumn]
    /// `*`: every column, so that results show what the table has now (and for a keyless table,
    /// the row location after them).
    let selectList: String
    let selectByKey: String
    let deleteByKey: String
    let deleteAll: String
    let exists: String
    /// `INSERT … SELECT $1, … WHERE NOT EXISTS (the key)` with every column, parameters in table
    /// order: no row when the key is taken. (Cheaper than `ON CONFLICT DO NOTHING`, whose
    /// speculative insertion writes more WAL; write blocks are serialized, so no other Persist
    /// writer can take the key in between.)
    let insertAll: String
    /// `INSERT … ON CONFLICT (key) DO UPDATE` setting every column.
    let upsertAll: String
    /// `UPDATE … SET` every column `WHERE key = $1`, the columns' parameters from `$2` in table
    /// order; `nil` for a table without columns. For tables the store created: PostgreSQL sets an
    /// identity column `GENERATED ALWAYS` of an adopted one only to its default.
    let updateAll: String?
    /// How entity plans map onto this table's columns, per plan: cached with the schema.
    let entityLayouts = EntityLayoutCache<PostgresEntityLayout>()
    /// The ORDER BY term of identifiers, ascending.
    let keyOrder: String
    /// What inserts and saves are called in errors (the item is named in the error's items).
    let insertOperation: String
    let saveOperation: String
    let readOperation: String

    init(itemType: String, name: String, schema: String, key: ColumnSchema, keyKind: KeyKind?,
         columns: [ColumnSchema], columnOrder: [String], takenNames: Set<String>, reservedAttributes: [String: String],
         writes: WriteStrategy, avoidsConflictClause: Bool = false, rowKey: TableKey? = nil) {
        self.itemType = itemType
        self.name = name
        self.qualified = SQLName.qualified(schema, name)
        self.key = key
        let rowKey = rowKey ?? TableKey(column: key)
        self.rowKey = rowKey
        self.selectList = rowKey.selectList
        self.keyKind = keyKind
        self.columns = columns
        var index: [String: Int] = [:]
        for (offset, column) in columns.enumerated() { index[column.attribute] = offset }
        self.columnIndex = index
        self.takenNames = takenNames
        self.reservedAttributes = reservedAttributes
        self.writes = avoidsConflictClause ? .checked : writes
        self.avoidsConflictClause = avoidsConflictClause
        var bySQLName: [String: Int] = [:]
        for (offset, column) in columns.enumerated() { bySQLName[column.name] = offset }
        var keyIndex: [String: Int] = [:]
        for (offset, column) in rowKey.columns.enumerated() { keyIndex[column.name] = offset }
        let keyRole: (Int) -> ResultColumn.Role = rowKey.isComposite ? { .keyComponent($0) } : { _ in .key }
        layout = columnOrder.filter { $0 != rowKey.locatorName }.map { name in
            if let offset = keyIndex[name] {
                return ResultColumn(name: name, typeOID: rowKey.columns[offset].typeOID, role: keyRole(offset))
            }
            if let index = bySQLName[name] {
                return ResultColumn(name: name, typeOID: columns[index].typeOID, role: .attribute(index))
            }
            return ResultColumn(name: name, typeOID: nil, role: .ignored)
        } + (rowKey.locatorName.map { [ResultColumn(name: $0, typeOID: PGType.int8, role: .key)] } ?? [])

        let match = rowKey.match("$1")
        selectByKey = "SELECT \(selectList) FROM \(qualified) WHERE \(match)"
        deleteByKey = "DELETE FROM \(qualified) WHERE \(match)"
        deleteAll = "DELETE FROM \(qualified)"
        exists = "SELECT EXISTS (SELECT 1 FROM \(qualified))"
        insertAll = Self.insertUnlessTaken(into: qualified, key: rowKey, columns: columns)
        // PostgreSQL sets an identity column GENERATED ALWAYS only to DEFAULT: a save keeps its value.
        let settable = columns.filter { !$0.isIdentityAlways }
        if settable.isEmpty {
            upsertAll = Self.insert(into: qualified, key: rowKey, columns: columns)
                + " ON CONFLICT (\(rowKey.columnList)) DO NOTHING"
        } else {
            let assignments = settable.map { "\($0.quoted) = EXCLUDED.\($0.quoted)" }.joined(separator: ", ")
            upsertAll = Self.insert(into: qualified, key: rowKey, columns: columns)
                + " ON CONFLICT (\(rowKey.columnList)) DO UPDATE SET \(assignments)"
        }
        let assignments = columns.enumerated().map { "\($1.quoted) = $\($0 + 2)" }.joined(separator: ", ")
        updateAll = columns.isEmpty ? nil : "UPDATE \(qualified) SET \(assignments) WHERE \(match)"
        keyOrder = rowKey.order
        insertOperation = "Inserting an item of type \(String(reflecting: itemType))"
        saveOperation = "Saving an item of type \(String(reflecting: itemType))"
        readOperation = "Reading items of type \(String(reflecting: itemType))"
    }

    /// `INSERT INTO table (key, columns…) VALUES ($1, $2, …)` (a composite key's columns take
    /// their values from `$1`).
    static func insert(into table: String, key: TableKey, columns: [ColumnSchema]) -> String {
        let (names, parameters) = insertLists(key: key, columns: columns)
        return "INSERT INTO \(table) (\(names))\(overriding(key: key, columns: columns)) VALUES (\(parameters))"
    }

    /// `INSERT INTO table (key, columns…) SELECT $1, $2, … WHERE NOT EXISTS (the key $1)`: no row
    /// when the key is taken.
    static func insertUnlessTaken(into table: String, key: TableKey, columns: [ColumnSchema]) -> String {
        let (names, parameters) = insertLists(key: key, columns: columns)
        return "INSERT INTO \(table) (\(names))\(overriding(key: key, columns: columns)) SELECT \(parameters) "
            + "WHERE NOT EXISTS (SELECT 1 FROM \(table) WHERE \(key.match("$1")))"
    }

    /// The column list `"key", "a", …` and the parameter list `$1, $2, …` of an insert.
    private static func insertLists(key: TableKey, columns: [ColumnSchema]) -> (String, String) {
        ((key.columns.map(\.quoted) + columns.map(\.quoted)).joined(separator: ", "),
         (key.values("$1") + columns.indices.map { "$\($0 + 2)" }).joined(separator: ", "))
    }

    /// ` OVERRIDING SYSTEM VALUE` when an insert gives a value to an identity column `GENERATED
    /// ALWAYS` (Persist always gives the key), which PostgreSQL refuses without it; otherwise empty.
    private static func overriding(key: TableKey, columns: [ColumnSchema]) -> String {
        key.columns.contains(where: \.isIdentityAlways) || columns.contains(where: \.isIdentityAlways)
            ? " OVERRIDING SYSTEM VALUE" : ""
    }

    /// The parameter selecting the row with identifier `id` (`$1` of ``selectByKey`` and the
    /// other keyed statements); `nil` when no row can have it.
    @inline(__always)
    func keyParameter(_ id: ItemID) -> PGValue? {
        rowKey.isSingleColumn ? key.type.encodeID(id) : rowKey.parameter(id)
    }

    /// Whether the store created the table.
    var isCreated: Bool { keyKind != nil }

    /// The column for an attribute.
    func column(_ attribute: String) -> ColumnSchema? {
        columnIndex[attribute].map { columns[$0] }
    }

    /// The key column named `name` of a table keyed by its columns (an adopted table's key column
    /// is named as the attribute a relation through it names); `nil` for another name.
    func keyColumn(_ name: String) -> ColumnSchema? {
        isCreated ? nil : rowKey.columns.first { $0.name == name }
    }

    /// The same table with other columns (added or widened), or another key.
    func replacing(columns newColumns: [ColumnSchema]? = nil, key newKey: ColumnSchema? = nil,
                   keyKind newKeyKind: KeyKind? = nil, schema: String) -> TableSchema {
        let replacement = newColumns ?? columns
        var taken = takenNames
        var order = layout.map(\.name)
        for column in replacement {
            taken.insert(column.name)
            if !order.contains(column.name) { order.append(column.name) }
        }
        return TableSchema(itemType: itemType, name: name, schema: schema, key: newKey ?? key,
                           keyKind: newKeyKind ?? keyKind, columns: replacement, columnOrder: order, takenNames: taken,
                           reservedAttributes: reservedAttributes, writes: writes,
                           avoidsConflictClause: avoidsConflictClause, rowKey: newKey == nil ? rowKey : nil)
    }

    /// The same table, written without `ON CONFLICT` (see ``avoidsConflictClause``).
    func avoidingConflictClause(schema: String) -> TableSchema {
        TableSchema(itemType: itemType, name: name, schema: schema, key: key, keyKind: keyKind, columns: columns,
                    columnOrder: layout.map(\.name), takenNames: takenNames, reservedAttributes: reservedAttributes,
                    writes: .checked, avoidsConflictClause: true, rowKey: rowKey)
    }
}

/// One column of a table as `SELECT *` returns it.
struct ResultColumn: Sendable {
    /// What the column holds.
    enum Role: Sendable {
        case key
        /// The column at this offset of a composite key (``TableKey/columns``).
        case keyComponent(Int)
        /// The attribute column at this index of ``TableSchema/columns``.
        case attribute(Int)
        /// Not an attribute (a generated column, a column of a type Persist does not map).
        case ignored
    }

    let name: String
    /// The name's bytes, NUL-terminated, to compare with a result's column names without copying.
    let cName: ContiguousArray<CChar>
    /// The type results report; `nil` for a column that is not read.
    let typeOID: UInt32?
    let role: Role

    init(name: String, typeOID: UInt32?, role: Role) {
        self.name = name
        self.cName = name.utf8CString
        self.typeOID = typeOID
        self.role = role
    }
}

extension TableSchema: SQLTable {
    var sqlName: String { qualified }
    var keySQL: String { rowKey.selection }
}

extension ColumnSchema: SQLColumn {}
