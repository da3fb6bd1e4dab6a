import Persist
import PersistSQL

/// The writes of one write transaction on the writer connection.
///
/// Tables and columns are created as items need them; the kinds of created columns are enforced;
/// writes to legacy columns whose affinity could change a value are read back and refused when
/// SQLite would store something else.
final class SQLiteWriter: SQLiteReader, StoreWriter {
    /// What the transaction changed in the schema, for the log once it commits.
    private(set) var schemaChanges: [String] = []
    /// The bulk load this transaction is (see `SQLiteWriter+BulkLoad.swift`); `nil` for a write block.
    let bulkLoad: SQLiteBulkLoad?
    /// The tables a migration recreated in this transaction (see `SQLiteWriter+Recreate.swift`).
    var recreation = TableRecreation()
    /// Declared type → the temporary table that probes what SQLite stores for it.
    var probeTables: [String: String] = [:]
    /// Where the fast paths copy each row's text and bytes to bind them in place.
    lazy var arena = BindingArena()

    init(connection: SQLiteConnection, schema: DatabaseSchema, bulkLoad: SQLiteBulkLoad?) {
        self.bulkLoad = bulkLoad
        super.init(connection: connection, schema: schema)
    }

    /// Records a schema change for the log written once the transaction commits.
    func noteSchemaChange(_ change: String) {
        schemaChanges.append(change)
    }

    var editor: SchemaEditor { SchemaEditor(connection: connection) }

    // MARK: StoreWriter

    func insert(_ item: Item) throws {
        try checkTransaction()
        let (table, values) = try resolve(item)
        let key = try keyValues(item, table)
        var columns = table.columns
        var given = values
        var sql = table.insertAll
        if let kept = Self.leavingDefaults(table, values) {
            (columns, given) = kept
            sql = TableSchema.insert(into: table.quoted, key: table.key, columns: columns)
        }
        do {
            try checked(item, table, columns: columns, values: given) {
                try run(sql, key + given, "Inserting \(item.reference)")
            }
        } catch let error as DataStoreError where error.code == .alreadyExists {
            // The key's affinity or collation made the identifier another row's: the item is not there.
            if mayAlterKey(item, table), try super.item(ofType: item.itemType, id: item.id) == nil {
                throw altered(item, table, Self.keyChangeDetail(item))
            }
            throw DataStoreError(
                .alreadyExists, "\(item.reference) already exists in the SQLite database at \(path); "
                    + "use save to replace it, or give the new item another identifier",
                path: path, engineCode: error.engineCode, engineMessage: error.engineMessage, items: [item.reference])
        }
    }

    func save(_ item: Item) throws {
        try checkTransaction()
        let (table, values) = try resolve(item)
        let key = try keyValues(item, table)
        // A legacy DEFAULT may fill a column the item lacks: only the columns given are checked.
        let kept = Self.leavingDefaults(table, values)
        try checked(item, table, columns: kept?.columns ?? table.columns, values: kept?.values ?? values) {
            let operation = "Saving \(item.reference)"
            if let upsert = table.upsert, !table.hasDefaults {
                try run(upsert, key + values, operation)
                return
            }
            if let update = table.update, let keyBindings = table.keyBindings(for: item.id) {
                try run(update, keyBindings + values, operation)
                if connection.changes > 0 { return }
                // A trigger's RAISE(IGNORE) skipped the update of a row that exists: the check reports it.
                if table.hasTriggers, try super.item(ofType: item.itemType, id: item.id) != nil { return }
            } else if try super.item(ofType: item.itemType, id: item.id) != nil {
                return
            }
            try insert(item)
        }
    }

    /// The columns and values a write gives when a legacy column with a `DEFAULT` gets no value
    /// from the item, so that the `DEFAULT` stays in effect for it; `nil` when every column is given.
    private static func leavingDefaults(_ table: TableSchema, _ values: [SQLBinding])
        -> (columns: [ColumnSchema], values: [SQLBinding])? {
        guard table.hasDefaults, values.contains(.null) else { return nil }
        let kept = table.columns.indices.filter { !(table.columns[$0].hasDefault && values[$0] == .null) }
        return (kept.map { table.columns[$0] }, kept.map { values[$0] })
    }

    func deleteItem(ofType itemType: String, id: ItemID) throws -> Bool {
        try checkTransaction()
        guard let table = schema.tables[itemType], let bindings = table.keyBindings(for: id) else { return false }
        if table.hasTriggers { return try deleteCheckingTriggers(table, bindings, ItemReference(itemType: itemType, id: id)) }
        try run(table.deleteByKey, bindings, "Deleting \(ItemReference(itemType: itemType, id: id))")
        return connection.changes > 0
    }

    func deleteAllItems(ofType itemType: String) throws -> Int {
        try checkTransaction()
        guard let table = schema.tables[itemType] else { return 0 }
        if table.hasTriggers { return try deleteItems(matching: DataStoreRequest(itemType: itemType)) }
        try run(table.deleteAll, [], "Deleting every item of type \(String(reflecting: itemType))")
        return connection.changes
    }

    // MARK: Running statements

    /// Checks the transaction is still open: SQLite rolls a transaction back by itself after some
    /// errors (a full disk, an I/O error), and the rest of the block must not then run, statement
    /// by statement, outside any transaction. Every write operation checks once, on entry: within
    /// one operation a failed statement throws, so none runs after a rollback.
    func checkTransaction() throws {
        guard connection.isInTransaction else {
            throw DataStoreError(
                .misuse,
                "the write block on the SQLite database at \(path) continued after SQLite had rolled its "
                    + "transaction back because of an earlier error; let that error end the block",
                path: path)
        }
    }

    /// Runs a write statement inside the transaction the operation checked on entry.
    func run(_ sql: String, _ bindings: [SQLBinding], _ operation: @autoclosure () -> String) throws {
        try connection.execute(sql, bindings, operation: operation())
    }

    /// The values the item's identifier binds for the table's key, in key order; a `typeMismatch`
    /// naming the table and its key when the identifier has another shape or kind than the key's.
    func keyValues(_ item: Item, _ table: TableSchema) throws -> [SQLBinding] {
        guard let values = table.keyValues(for: item.id) else {
            let detail = table.keyMismatch(item.id) ?? "its key does not fit the identifier"
            throw DataStoreError(
                .typeMismatch,
                "the table \(String(reflecting: table.name)) in the SQLite database at \(path) cannot store "
                    + "\(item.reference): \(detail)",
                path: path, items: [item.reference])
        }
        return values
    }

    // MARK: Tables and columns

    /// The item's table (created or extended as needed, its keys tagged for a composite identifier
    /// in a table the store created) and its column values in table order.
    func resolve(_ item: Item) throws -> (TableSchema, [SQLBinding]) {
        let (table, values) = try resolveColumns(item)
        guard item.id.isComposite, table.isInCreatedForm, !table.taggedKeys else { return (table, values) }
        let tagged = try editor.tagKeys(of: table, in: &schema)
        schemaChanges.append("tagged the keys of table \(String(reflecting: table.name)) to hold composite identifiers")
        return (tagged, values)
    }

    private func resolveColumns(_ item: Item) throws -> (TableSchema, [SQLBinding]) {
        guard var table = schema.tables[item.itemType] else {
            let created = try create(item)
            try materializeIndexes(ofType: item.itemType)
            return created
        }
        var values = [SQLBinding](repeating: .null, count: table.columns.count)
        var newColumns: [(name: String, value: Value)] = []
        for (name, value) in item.attributes {
            if let index = table.columnIndex[name] {
                if SchemaEditor.mustWiden(table.columns[index], of: table, toHold: value) {
                    table = try widen(columnAt: index, of: table)
                }
                do {
                    values[index] = try binding(value, name, table.columns[index], item)
                } catch {
                    // The attributes come in no fixed order: name the first column that refuses
                    // its value, so that every way of writing the item reports the same one.
                    throw firstRefusal(of: item, in: table) ?? error
                }
            } else {
                newColumns.append((name, value))
            }
        }
        if !newColumns.isEmpty {
            newColumns.sort { ByteOrder.precedes($0.name, $1.name) }
            let columns = try plannedColumns(newColumns, of: item, taken: table.takenNames)
            table = try editor.addColumns(columns, to: table, in: &schema)
            schemaChanges.append("added \(Self.describe(columns)) to table \(String(reflecting: table.name))")
            values.append(contentsOf: columns.map { ValueCodec.typedBinding(item.attributes[$0.name] ?? .null) })
            try materializeIndexes(ofType: item.itemType)
        }
        return (table, values)
    }

    /// The columns and bindings that set `values` on rows of the existing table of `itemType`,
    /// adding and widening columns as ``resolve(_:)`` does for one item. A null removes the
    /// attribute; a null for a column that does not exist needs nothing.
    func resolveAssignments(
        _ values: [String: Value], ofType itemType: String
    ) throws -> (TableSchema, [(column: ColumnSchema, parameter: SQLBinding)]) {
        // The checks name an item: here it stands for every item the request selects, which the
        // error must not list as if it were one.
        let probe = Item(itemType: itemType, id: .string("(each updated item)"), attributes: values)
        do {
            return try resolveAssignments(values, ofType: itemType, probe: probe)
        } catch var error as DataStoreError where error.items.contains(probe.reference) {
            error.items.removeAll { $0 == probe.reference }
            error.message = error.message.replacingOccurrences(
                of: probe.reference.description, with: "each item of type \(String(reflecting: itemType)) it selects")
            throw error
        }
    }

    private func resolveAssignments(
        _ values: [String: Value], ofType itemType: String, probe: Item
    ) throws -> (TableSchema, [(column: ColumnSchema, parameter: SQLBinding)]) {
        guard var table = schema.tables[itemType] else {
            throw DataStoreError(.misuse, "the table \(String(reflecting: itemType)) is not in the SQLite database at \(path)",
                                 path: path)
        }
        var assignments: [(column: ColumnSchema, parameter: SQLBinding)] = []
        var newColumns: [(name: String, value: Value)] = []
        for (name, value) in values.sorted(by: { ByteOrder.precedes($0.key, $1.key) }) {
            guard let index = table.columnIndex[name] else {
                if !value.isNull { newColumns.append((name, value)) }
                continue
            }
            if value.isNull {
                assignments.append((table.columns[index], .null))
                continue
            }
            if SchemaEditor.mustWiden(table.columns[index], of: table, toHold: value) {
                table = try widen(columnAt: index, of: table)
            }
            assignments.append((table.columns[index], try binding(value, name, table.columns[index], probe)))
        }
        if !newColumns.isEmpty {
            let columns = try plannedColumns(newColumns, of: probe, taken: table.takenNames)
            table = try editor.addColumns(columns, to: table, in: &schema)
            schemaChanges.append("added \(Self.describe(columns)) to table \(String(reflecting: table.name))")
            assignments += columns.map { ($0, ValueCodec.typedBinding(values[$0.name] ?? .null)) }
            try materializeIndexes(ofType: itemType)
        }
        return (table, assignments)
    }

    private func create(_ item: Item) throws -> (TableSchema, [SQLBinding]) {
        if let renamed = try editor.releaseKeyIndexName(of: item.itemType, in: &schema) {
            schemaChanges.append("named the key index of table \(String(reflecting: renamed)), renamed from "
                                 + "\(String(reflecting: item.itemType)), after it, so that a new table can take that type")
        }
        if let reason = schema.reasonNotToCreate(item.itemType) {
            throw DataStoreError(
                .invalidArgument,
                "the item type \(String(reflecting: item.itemType)) cannot be a table in the SQLite database at "
                    + "\(path): \(reason); choose another item type name",
                path: path, items: [item.reference])
        }
        let attributes = item.attributes.sorted { ByteOrder.precedes($0.key, $1.key) }.map { (name: $0.key, value: $0.value) }
        let key = DatabaseSchema.createdKeyColumn
        let columns = try plannedColumns(attributes, of: item, taken: [SQLName.folded(key): key])
        let table = try editor.createTable(item.itemType, columns: columns, deferKeyIndex: bulkLoad != nil, in: &schema)
        bulkLoad?.deferredKeyIndexes.append(table.name)
        schemaChanges.append("created table \(String(reflecting: table.name)) with \(Self.describe(columns))")
        return (table, columns.map { ValueCodec.typedBinding(item.attributes[$0.name] ?? .null) })
    }

    /// "columns "a" (number), "b" (string)", for the log.
    private static func describe(_ columns: [ColumnSchema]) -> String {
        guard !columns.isEmpty else { return "no attribute columns" }
        let list = columns.map { column in
            switch column.storage {
            case .typed(let kind): return "\(String(reflecting: column.name)) (\(kind.rawValue))"
            case .mixed: return "\(String(reflecting: column.name)) (\(ColumnKind.mixedName))"
            case .legacy: return String(reflecting: column.name)
            }
        }
        return (columns.count == 1 ? "column " : "columns ") + list.joined(separator: ", ")
    }

    /// New typed columns for attributes, refusing names SQLite would take for an existing column.
    private func plannedColumns(
        _ attributes: [(name: String, value: Value)], of item: Item, taken: [String: String]
    ) throws -> [ColumnSchema] {
        var taken = taken
        var columns: [ColumnSchema] = []
        for (name, value) in attributes {
            let folded = SQLName.folded(name)
            if let existing = taken[folded] {
                throw DataStoreError(.invalidArgument, nameClash(name, existing, item), path: path, items: [item.reference])
            }
            guard let kind = ColumnKind(of: value) else { continue }
            taken[folded] = name
            columns.append(ColumnSchema(name: name, storage: .typed(kind)))
        }
        return columns
    }

    private func nameClash(_ name: String, _ existing: String, _ item: Item) -> String {
        let table = String(reflecting: item.itemType)
        if existing == DatabaseSchema.createdKeyColumn {
            return "the attribute name \(String(reflecting: name)) of \(item.reference) is reserved in the SQLite "
                + "database at \(path): the table \(table) keeps identifiers in its column \(existing); "
                + "rename the attribute"
        }
        if existing == name {
            return "the attribute \(String(reflecting: name)) of \(item.reference) names the key or a generated "
                + "column of table \(table) in the SQLite database at \(path), which cannot hold attribute values; "
                + "rename the attribute"
        }
        return "the attribute \(String(reflecting: name)) of \(item.reference) clashes with the column "
            + "\(String(reflecting: existing)) of table \(table) in the SQLite database at \(path): SQLite "
            + "compares column names without regard to ASCII case; rename the attribute"
    }

    /// The error of the first column of `table`, in table order, that refuses the item's value
    /// (a column the value would widen refuses nothing).
    private func firstRefusal(of item: Item, in table: TableSchema) -> (any Error)? {
        for column in table.columns {
            guard let value = item.attributes[column.name],
                  !SchemaEditor.mustWiden(column, of: table, toHold: value) else { continue }
            do {
                _ = try binding(value, column.name, column, item)
            } catch {
                return error
            }
        }
        return nil
    }

    /// The binding of a value for an existing column, refusing kinds the column does not hold.
    private func binding(_ value: Value, _ name: String, _ column: ColumnSchema, _ item: Item) throws -> SQLBinding {
        switch column.storage {
        case .typed(let kind):
            guard value.isNull || ColumnKind(of: value) == kind else {
                throw DataStoreError(
                    .typeMismatch,
                    "the attribute \(String(reflecting: name)) of type \(String(reflecting: item.itemType)) holds "
                        + "\(kind.plural) in the SQLite database at \(path), so \(item.reference) cannot store "
                        + "\(Self.brief(value)) in it; use another attribute for it",
                    path: path, items: [item.reference])
            }
            return ValueCodec.typedBinding(value)
        case .mixed:
            return MixedCodec.binding(value)
        case .legacy:
            if column.readsDecimals, value.kind == .int || value.kind == .double {
                throw legacyRefusal(name, item, "is declared with a scale (NUMERIC(p,s)) and reads its numbers as decimals, "
                    + "so \(item.reference) cannot store \(Self.brief(value)) in it as given; store it as a decimal")
            }
            if let binding = ValueCodec.legacyBinding(value, for: column) { return binding }
            if column.holdsJSON {
                throw legacyRefusal(name, item, "holds its values as JSON text, which cannot give back \(Self.brief(value)) "
                    + "as given (\(item.reference)); store it under another attribute name")
            }
            if column.dateForm != nil, value.kind == .date || value.kind == .string {
                throw legacyRefusal(name, item, "holds dates as ISO-8601 text, which cannot give back \(Self.brief(value)) "
                    + "as given (\(item.reference)); store it under another attribute name")
            }
            throw legacyRefusal(name, item, "was not created by Persist: it keeps integers, reals (not NaN), "
                + "text and blobs, so \(item.reference) cannot store \(Self.brief(value)) in it; store it "
                + "under another attribute name, or as one of those")
        }
    }

    /// A write refused by a legacy column: "the column … of table … in the SQLite database at … "
    /// followed by `why`.
    private func legacyRefusal(_ name: String, _ item: Item, _ why: String) -> DataStoreError {
        DataStoreError(
            .typeMismatch,
            "the column \(String(reflecting: name)) of table \(String(reflecting: item.itemType)) in the SQLite "
                + "database at \(path) " + why,
            path: path, items: [item.reference])
    }

    /// A value for a message: short values in full, long ones by kind and size.
    static func brief(_ value: Value) -> String {
        value.briefDescription
    }

    // MARK: Checking writes to legacy columns

    /// Runs `write`; when SQLite's affinity or collation could store the item differently than
    /// given, runs it in a savepoint, reads the row back, and undoes it with a `typeMismatch` error
    /// if anything differs.
    private func checked(
        _ item: Item, _ table: TableSchema, columns: [ColumnSchema], values: [SQLBinding], _ write: () throws -> Void
    ) throws {
        guard table.writes == .checked, table.hasTriggers || mayAlter(item, table, columns, values) else {
            try naming(item, write)
            return
        }
        try inSavepoint {
            try naming(item, write)
            try verify(item, table, columns, values)
        }
    }

    /// Runs `body` in a savepoint, which is undone when `body` throws.
    func inSavepoint(_ body: () throws -> Void) throws {
        try run("SAVEPOINT persist_checked_write", [], "Starting a savepoint")
        do {
            try body()
            try connection.execute("RELEASE persist_checked_write", operation: "Releasing a savepoint")
        } catch {
            if connection.isInTransaction {
                try? connection.execute("ROLLBACK TO persist_checked_write", operation: "Rolling back a savepoint")
                try? connection.execute("RELEASE persist_checked_write", operation: "Releasing a savepoint")
            }
            throw error
        }
    }

    /// Runs `body`, adding the item to errors SQLite reports about it (a constraint, a mismatch).
    func naming(_ item: Item, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as DataStoreError where error.code == .uniqueViolation && error.items.isEmpty {
            throw try namingUniqueViolation(error, item)
        } catch var error as DataStoreError where error.code == .alreadyExists
                    && error.engineCode == SQLiteErrors.primaryKeyConstraint && schema.tables[item.itemType]?.key.isRowid == true {
            // Not the item's identifier (the rowid) but the table's PRIMARY KEY of other columns.
            error.code = .uniqueViolation
            error.message = "Another item already holds the same values for the primary key of the table; nothing of "
                + "the write was stored."
            throw try namingUniqueViolation(error, item)
        } catch var error as DataStoreError where error.items.isEmpty && error.engineCode != nil {
            error.items = [item.reference]
            throw error
        }
    }

    private func mayAlter(_ item: Item, _ table: TableSchema, _ columns: [ColumnSchema], _ values: [SQLBinding]) -> Bool {
        if mayAlterKey(item, table) { return true }
        for (column, value) in zip(columns, values) {
            if let storage = ValueCodec.storageClass(value), column.affinity.mayConvertOnStore(storage) { return true }
        }
        return false
    }

    /// Whether the key's affinity or collation could store the item's identifier differently.
    private func mayAlterKey(_ item: Item, _ table: TableSchema) -> Bool {
        switch table.key {
        case .column(_, let affinity, let needsBinaryCollation):
            return needsBinaryCollation
                || ValueCodec.storageClass(ValueCodec.binding(item.id)).map(affinity.mayConvertOnStore) == true
        case .composite(let columns):
            guard case .composite(let components) = item.id, components.count == columns.count else { return false }
            return zip(columns, components).contains { column, component in
                column.needsBinaryCollation
                    || ValueCodec.storageClass(ValueCodec.binding(component)).map(column.affinity.mayConvertOnStore) == true
            }
        case .rowid:
            return false
        }
    }

    private func verify(_ item: Item, _ table: TableSchema, _ columns: [ColumnSchema], _ values: [SQLBinding]) throws {
        guard let stored = try super.item(ofType: table.name, id: item.id) else {
            // Without a key that could change it, only a trigger's RAISE(IGNORE) leaves no row.
            throw altered(item, table, mayAlterKey(item, table) ? Self.keyChangeDetail(item) : "a trigger of the table skipped the row")
        }
        for column in columns {
            let expected = item.attributes[column.name]
            let actual = stored.attributes[column.name]
            // A value where the item gave none is a default's or a trigger's: the table's own.
            guard let expected, expected != actual else { continue }
            let cause = Self.affinityChanged(expected, into: actual)
                ? "the column \(String(reflecting: column.name)), which has \(column.affinity.rawValue.uppercased()) affinity,"
                : "a trigger of the table"
            throw altered(item, table, "\(cause) would turn \(Self.brief(expected)) into \(actual.map(Self.brief) ?? "null") "
                + "in the column \(String(reflecting: column.name))")
        }
    }

    /// Whether a column's affinity, rather than a trigger, turned `expected` into `actual`:
    /// affinity changes the storage class of a value it converts (and the sign of a -0.0 in a
    /// REAL column), and never clears one; any other change is a trigger's.
    static func affinityChanged(_ expected: Value, into actual: Value?) -> Bool {
        guard let actual else { return false }
        if actual.kind != expected.kind { return true }
        if case .double(let given) = expected, case .double(let kept) = actual {
            return given == 0 && given.sign == .minus && kept == 0 && kept.sign == .plus
        }
        return false
    }

    private static func keyChangeDetail(_ item: Item) -> String {
        "its identifier \(item.id) would be stored as a different key, or match another row's key under the key "
            + "column's collation"
    }

    private func altered(_ item: Item, _ table: TableSchema, _ detail: String) -> DataStoreError {
        DataStoreError(
            .typeMismatch,
            "SQLite would not store \(item.reference) as given in table \(String(reflecting: table.name)) of the "
                + "database at \(path): \(detail); nothing was written. Give the value in the form the column "
                + "keeps, leave out a value the table sets itself, or store it under another attribute name",
            path: path, items: [item.reference])
    }
}
