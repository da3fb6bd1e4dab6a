import Persist
import PersistSQL

/// The writes of one write block, in the writer session's transaction.
///
/// Tables and columns are created as items need them; a created column or key that meets a value
/// its type cannot hold widens to the mixed encoding; a column of an adopted table keeps its
/// declared type and refuses such a value with `typeMismatch`. Writes to adopted (guarded)
/// tables run in a savepoint and are read back, so that a refused or altered row leaves nothing
/// behind and the block can go on.
final class PostgresWriter: PostgresReader, StoreWriter {
    /// What the block changed in the schema, for the log once it commits.
    var schemaChanges: [String] = []
    /// The tables a migration recreated in this block (see `PostgresWriter+Recreate.swift`).
    var recreation = TableRecreation()
    /// How rows of each shape a bulk load copies go into their tables' columns.
    var placements = ShapePlans<TableSchema, Placement>()
    /// The adopted tables with an integer key that this block wrote an integer identifier to:
    /// their key's sequence, if any, is moved past the largest key before the block commits (see
    /// `PostgresWriter+Identifiers.swift`).
    var keyedByInteger: Set<String> = []
    /// The types whose last generated identifier in this block came from their key's sequence:
    /// the accessor asks for each next one again (see `PostgresWriter+Identifiers.swift`).
    var sequencedKeys: Set<String> = []

    var editor: SchemaEditor { SchemaEditor(transaction: transaction, location: location) }

    /// Records a schema change for the log written once the block commits.
    func noteSchemaChange(_ change: String) {
        schemaChanges.append(change)
    }

    // MARK: StoreWriter

    func insert(_ item: Item) throws {
        try checkTransaction()
        if let (table, parameters) = ready(item) {
            let result = try naming(item) {
                try transaction.run([PGCommand(table.insertAll, parameters, prepared: true, operation: table.insertOperation)])[0]
            }
            if result.affectedRows == 0 { throw alreadyExists(item) }
            return
        }
        if schema.tables[item.itemType]?.writes == .checked { return try guardedWrite(item, replacing: false) }
        let (table, key) = try resolve(item)
        if table.writes == .checked { return try guardedWrite(item, replacing: false) }
        let result = try naming(item) {
            try transaction.run([PGCommand(table.insertAll, parameters(key, item, table), prepared: true,
                                           operation: table.insertOperation)])[0]
        }
        if result.affectedRows == 0 { throw alreadyExists(item) }
    }

    func save(_ item: Item) throws {
        try checkTransaction()
        if let (table, parameters) = ready(item) {
            _ = try naming(item) {
                try transaction.run([PGCommand(table.upsertAll, parameters, prepared: true, operation: table.saveOperation)])
            }
            return
        }
        if schema.tables[item.itemType]?.writes == .checked { return try guardedWrite(item, replacing: true) }
        let (table, key) = try resolve(item)
        if table.writes == .checked { return try guardedWrite(item, replacing: true) }
        _ = try naming(item) {
            try transaction.run([PGCommand(table.upsertAll, parameters(key, item, table), prepared: true,
                                           operation: table.saveOperation)])
        }
    }

    func deleteItem(ofType itemType: String, id: ItemID) throws -> Bool {
        try checkTransaction()
        guard let table = schema.tables[itemType] else { return false }
        let reference = ItemReference(itemType: itemType, id: id)
        try refuseKeyless(table, items: [reference])
        guard let key = table.keyParameter(id) else { return false }
        if table.writes == .checked { return try guardedDelete(table, key: key, reference) }
        let command = PGCommand(table.deleteByKey, [key], prepared: true, operation: "Deleting \(reference)")
        return try transaction.run([command])[0].affectedRows > 0
    }

    func deleteAllItems(ofType itemType: String) throws -> Int {
        try checkTransaction()
        guard let table = schema.tables[itemType] else { return 0 }
        // A guarded table's triggers or rules may keep rows: checked as a set-based delete.
        if table.writes == .checked { return try deleteItems(matching: DataStoreRequest(itemType: itemType)) }
        let command = PGCommand(table.deleteAll, prepared: true,
                                operation: "Deleting every item of type \(String(reflecting: itemType))")
        return try transaction.run([command])[0].affectedRows
    }

    // MARK: The transaction

    /// Refuses to go on after a statement failed outside a savepoint: PostgreSQL has aborted the
    /// transaction, and the rest of the block would only fail.
    ///
    /// Ends a bulk load's open COPY first, so that an error of its rows is reported as such and
    /// not as one of the write that follows.
    func checkTransaction() throws {
        try endBulkCopy()
        try checkNotFailed()
    }

    /// Throws when the server aborted the block's transaction.
    func checkNotFailed() throws {
        if let failure = transaction.failure {
            throw DataStoreError(
                .misuse,
                "the write block on PostgreSQL at \(location) continued after PostgreSQL had aborted its transaction "
                    + "because of an earlier error (\(failure.message)); let that error end the block",
                path: location)
        }
    }

    /// Runs `body`, adding the item to errors the server reports about it.
    private func naming<T>(_ item: Item, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch var error as DataStoreError where error.items.isEmpty {
            error.items = [item.reference]
            throw error
        }
    }

    func alreadyExists(_ item: Item) -> DataStoreError {
        DataStoreError(.alreadyExists, "\(item.reference) already exists in PostgreSQL at \(location); use save to "
            + "replace it, or give the new item another identifier", path: location, items: [item.reference])
    }

    // MARK: Tables and columns

    /// The common case in one pass: a created table whose columns already keep every value of the
    /// item, and its parameters (the key, then each column in table order); `nil` otherwise.
    private func ready(_ item: Item) -> (TableSchema, [PGValue])? {
        guard let table = schema.tables[item.itemType], table.writes == .direct, let key = table.keyParameter(item.id) else {
            return nil
        }
        let dateOID = schema.dateTypeOID ?? 0
        var parameters: [PGValue] = []
        parameters.reserveCapacity(table.columns.count + 1)
        parameters.append(key)
        var matched = 0
        for column in table.columns {
            guard let value = item.attributes[column.attribute] else {
                parameters.append(column.nullParameter)
                continue
            }
            guard let parameter = column.type.encode(value, persistDateOID: dateOID) else { return nil }
            parameters.append(parameter)
            matched += 1
        }
        return matched == item.attributes.count ? (table, parameters) : nil
    }

    /// The item's table (created, extended or widened as needed) and its key parameter.
    func resolve(_ item: Item) throws -> (TableSchema, PGValue) {
        let changesBefore = schemaChanges.count
        var table = try schema.tables[item.itemType] ?? createTable(for: item)
        try refuseKeyless(table, items: [item.reference])
        if table.keyParameter(item.id) == nil {
            if table.rowKey.isComposite { throw compositeKeyMismatch(item, table) }
            guard let kind = table.keyKind, kind != .mixed else {
                throw DataStoreError(
                    .typeMismatch,
                    "the table \(table.qualified) in PostgreSQL at \(location) keeps its items under the key "
                        + "\(table.key.quoted) of type \(Self.describe(table.key.type)), which cannot hold the identifier "
                        + "of \(item.reference); give the item an identifier of the key's type"
                        + (table.key.type.integerRange == nil ? ""
                            : " (createItem(ofType:idGeneration: .nextInteger) makes one, createItem(ofType:) a UUID string)"),
                    path: location, items: [item.reference])
            }
            table = try editor.widenKey(of: table, in: &schema)
            schemaChanges.append("let the key of table \(table.qualified) hold identifiers of every kind")
        }
        var planned: [SchemaEditor.PlannedColumn] = []
        // The common case first: every attribute has a column that keeps its value.
        let dateOID = schema.dateTypeOID ?? 0
        for name in keepsAttributes(of: item, in: table) ? [] : item.attributes.keys.sorted(by: { ByteOrder.precedes($0, $1) }) {
            guard let value = item.attributes[name] else { continue }
            if let index = table.columnIndex[name] {
                let column = table.columns[index]
                guard column.type.encode(value, persistDateOID: dateOID) == nil else { continue }
                guard column.isCreated, column.type != .mixed else { throw mismatch(item, name, value, column, table) }
                table = try editor.widen(columnAt: index, of: table, in: &schema)
                schemaChanges.append("let column \(column.quoted) of table \(table.qualified) hold values of every kind")
            } else if let reason = table.reservedAttributes[name] {
                throw DataStoreError(
                    .invalidArgument,
                    "the attribute \(String(reflecting: name)) of \(item.reference) cannot be stored in table "
                        + "\(table.qualified) of PostgreSQL at \(location): \(reason); rename the attribute",
                    path: location, items: [item.reference])
            } else if let kind = CreatedKind(for: value) {
                planned.append(SchemaEditor.PlannedColumn(attribute: name, kind: kind))
            }
        }
        if !planned.isEmpty {
            table = try editor.addColumns(planned, to: table, in: &schema)
            schemaChanges.append("added \(Self.describe(planned)) to table \(table.qualified)")
        }
        if schemaChanges.count > changesBefore, let materialized = try materializeIndexes(ofType: item.itemType) {
            table = materialized
        }
        guard let key = table.keyParameter(item.id) else { throw mismatch(item, table) }
        return (table, key)
    }

    /// Whether every attribute of `item` has a column of `table` that keeps its value as it is.
    func keepsAttributes(of item: Item, in table: TableSchema) -> Bool {
        let dateOID = schema.dateTypeOID ?? 0
        return item.attributes.allSatisfy { name, value in
            guard let index = table.columnIndex[name] else { return false }
            return table.columns[index].type.encode(value, persistDateOID: dateOID) != nil
        }
    }

    private func createTable(for item: Item) throws -> TableSchema {
        if item.itemType.utf8.count <= SQLName.maximumBytes, schema.takenNames.contains(item.itemType),
           !StoreSchema.reservedNames.contains(item.itemType) {
            throw DataStoreError(
                .invalidArgument,
                "the item type \(String(reflecting: item.itemType)) cannot be a table in schema "
                    + "\(String(reflecting: schema.name)) of PostgreSQL at \(location): the schema already has a relation "
                    + "or type with this name that is not an item type (see skippedTables()); choose another item type name",
                path: location, items: [item.reference])
        }
        let planned = item.attributes.keys.sorted { ByteOrder.precedes($0, $1) }.compactMap { name in
            item.attributes[name].flatMap(CreatedKind.init(for:)).map { SchemaEditor.PlannedColumn(attribute: name, kind: $0) }
        }
        let table = try editor.createTable(item.itemType, keyKind: KeyKind(for: item.id), columns: planned, in: &schema)
        schemaChanges.append("created table \(table.qualified) with \(Self.describe(planned))")
        return table
    }

    /// "columns "a" (int), "b" (string)", for the log.
    static func describe(_ columns: [SchemaEditor.PlannedColumn]) -> String {
        guard !columns.isEmpty else { return "no attribute columns" }
        let list = columns.map { "\(String(reflecting: $0.attribute)) (\($0.kind.rawValue))" }
        return (columns.count == 1 ? "column " : "columns ") + list.joined(separator: ", ")
    }

    /// The key, then the parameters of every column of `table`, in table order.
    private func parameters(_ key: PGValue, _ item: Item, _ table: TableSchema) throws -> [PGValue] {
        let dateOID = schema.dateTypeOID ?? 0
        var parameters: [PGValue] = []
        parameters.reserveCapacity(table.columns.count + 1)
        parameters.append(key)
        for column in table.columns {
            guard let value = item.attributes[column.attribute] else {
                parameters.append(column.nullParameter)
                continue
            }
            guard let parameter = column.type.encode(value, persistDateOID: dateOID) else {
                throw mismatch(item, column.attribute, value, column, table)
            }
            parameters.append(parameter)
        }
        return parameters
    }

    func mismatch(_ item: Item, _ name: String, _ value: Value, _ column: ColumnSchema, _ table: TableSchema)
        -> DataStoreError {
        DataStoreError(
            .typeMismatch,
            "the column \(column.quoted) of table \(table.qualified) in PostgreSQL at \(location) has the type "
                + "\(Self.describe(column.type)), which cannot keep \(Self.brief(value)) of \(item.reference) as it is; "
                + "nothing was written. Store the value in a form the column keeps, or under another attribute name",
            path: location, items: [item.reference])
    }

    private func mismatch(_ item: Item, _ table: TableSchema) -> DataStoreError {
        DataStoreError(.typeMismatch, "the key \(table.key.quoted) of table \(table.qualified) in PostgreSQL at "
            + "\(location) cannot hold the identifier of \(item.reference)", path: location, items: [item.reference])
    }

    /// A column type for a message.
    static func describe(_ type: ColumnType) -> String {
        switch type {
        case .boolean: "boolean"
        case .smallint: "smallint"
        case .integer: "integer"
        case .bigint: "bigint"
        case .numeric(let precision, let scale):
            precision.map { "numeric(\($0), \(scale ?? 0))" } ?? "numeric"
        case .real: "real"
        case .doublePrecision: "double precision"
        case .text(let maxLength, _): maxLength.map { "varchar(\($0))" } ?? "text"
        case .character(let length): "char(\(length))"
        case .bytea, .encoded, .mixed: "bytea"
        case .date: "date"
        case .timestamp: "timestamp"
        case .timestamptz: "timestamptz"
        case .uuid: "uuid (strings in the lower-case form PostgreSQL prints)"
        case .time: "time (strings like 04:05:06.5)"
        case .timetz: "timetz (strings like 04:05:06+02)"
        case .interval: "interval (strings like 1 year 2 mons 3 days 04:05:06)"
        case .inet: "inet"
        case .cidr: "cidr"
        case .macaddr: "macaddr"
        case .macaddr8: "macaddr8"
        case .enumeration(_, let labels): "an enum of the labels \(labels.map { String(reflecting: $0) }.joined(separator: ", "))"
        case .array(let element, _): "an array of \(describe(element))"
        case .json: "json"
        case .jsonb: "jsonb"
        case .persistDate: "persist_date"
        }
    }

    /// A value for a message: short values in full, long ones by kind and size.
    static func brief(_ value: Value) -> String {
        value.briefDescription
    }
}
