internal import CSQLite
import Persist
import PersistSQL

/// Reads a database's schema: which tables are item types, their keys and columns, and the kinds
/// the metadata table records for the columns the store created.
enum SchemaLoader {
    private static let operation = "Reading the schema"

    /// The schema as the connection's current transaction sees it.
    static func load(_ connection: SQLiteConnection) throws -> DatabaseSchema {
        var schema = DatabaseSchema()
        try connection.withStatement("SELECT name FROM sqlite_schema WHERE type IN ('table', 'view', 'index')") { statement in
            while try statement.step(operation) {
                let name = statement.text(0)
                schema.takenNames[SQLName.folded(name)] = name
            }
        }
        var entries: [(name: String, type: String, withoutRowid: Bool, strict: Bool)] = []
        try connection.withStatement("SELECT name, type, wr, strict FROM pragma_table_list WHERE schema = 'main'") { statement in
            while try statement.step(operation) {
                entries.append((statement.text(0), statement.text(1), statement.int64(2) != 0, statement.int64(3) != 0))
            }
        }
        entries.sort { ByteOrder.precedes($0.name, $1.name) }
        schema.hasMetadataTable = entries.contains { $0.name == DatabaseSchema.metadataTable && $0.type == "table" }
        schema.hasIndexTable = entries.contains { $0.name == DatabaseSchema.indexTable && $0.type == "table" }
        schema.hasRelationTable = entries.contains { $0.name == DatabaseSchema.relationTable && $0.type == "table" }
        let kinds = schema.hasMetadataTable ? try loadKinds(connection) : [:]
        // The catalog tables themselves are not worth reporting.
        let unreported = DatabaseSchema.ownTables.union(["sqlite_schema", "sqlite_temp_schema"])
        for entry in entries where !unreported.contains(entry.name) {
            let reason: SkippedTable.Reason?
            if SQLName.isReservedBySQLite(entry.name) {
                reason = .sqliteInternal
            } else {
                switch entry.type {
                case "table":
                    switch try loadTable(entry.name, withoutRowid: entry.withoutRowid, strict: entry.strict,
                                         kinds: kinds, connection) {
                    case .success(let table):
                        reason = adopt(table, into: &schema)
                    case .failure(let skipped):
                        reason = skipped.reason
                    }
                case "view": reason = .view
                case "virtual": reason = .virtualTable
                default: reason = .shadowTable
                }
            }
            if let reason { schema.skipped.append(SkippedTable(name: entry.name, reason: reason)) }
        }
        try loadIndexes(into: &schema, connection)
        try loadRelations(into: &schema, connection)
        return schema
    }

    /// Adds `table` to the schema's item types, unless its name is another spelling of a table's
    /// already there: then the table the store created is kept (else the one met first, in byte
    /// order), and the reason the other is skipped is returned.
    private static func adopt(_ table: TableSchema, into schema: inout DatabaseSchema) -> SkippedTable.Reason? {
        guard let existing = schema.tables[table.name] else {
            schema.tables[table.name] = table
            return nil
        }
        guard table.isInCreatedForm, !existing.isInCreatedForm else {
            return .ambiguousName(NameSpellings.tableClash(kept: existing.name, skipped: table.name))
        }
        schema.tables[table.name] = nil
        schema.tables[table.name] = table
        schema.skipped.append(SkippedTable(name: existing.name, reason: .ambiguousName(
            NameSpellings.tableClash(kept: table.name, skipped: existing.name))))
        return nil
    }

    /// The table `name` as the connection's transaction sees it, with the kinds recorded for it;
    /// `nil` when it is not an item type.
    static func loadTable(_ name: String, _ connection: SQLiteConnection) throws -> TableSchema? {
        var flags: (withoutRowid: Bool, strict: Bool)?
        try connection.withStatement("SELECT wr, strict FROM pragma_table_list WHERE schema = 'main' AND name = ?1",
                                     [.text(name)]) { statement in
            if try statement.step(operation) { flags = (statement.int64(0) != 0, statement.int64(1) != 0) }
        }
        guard let flags else { return nil }
        var kinds: [String: [String: ColumnSchema.Storage]] = [:]
        if try connection.integer("SELECT count(*) FROM sqlite_schema WHERE name = ?1", [.text(DatabaseSchema.metadataTable)],
                                  operation: operation) > 0 {
            kinds = try loadKinds(connection)
        }
        if case .success(let table) = try loadTable(name, withoutRowid: flags.withoutRowid, strict: flags.strict,
                                                    kinds: kinds, connection) {
            return table
        }
        return nil
    }

    /// A skipped table, as the failure of loading one.
    struct Skip: Error {
        let reason: SkippedTable.Reason
    }

    private struct RawColumn {
        let name: String
        let declaredType: String
        let primaryKeyPosition: Int64
        let hasDefault: Bool
        let isGenerated: Bool
        var collation = "BINARY"
    }

    private static func loadTable(
        _ name: String, withoutRowid: Bool, strict: Bool, kinds: [String: [String: ColumnSchema.Storage]],
        _ connection: SQLiteConnection
    ) throws -> Result<TableSchema, Skip> {
        var raw: [RawColumn] = []
        try connection.withStatement(
            "SELECT name, type, pk, dflt_value IS NOT NULL, hidden FROM pragma_table_xinfo(?1, 'main')", [.text(name)]
        ) { statement in
            while try statement.step(operation) {
                let hidden = statement.int64(4)
                raw.append(RawColumn(name: statement.text(0), declaredType: statement.text(1),
                                     primaryKeyPosition: statement.int64(2), hasDefault: statement.int64(3) != 0,
                                     isGenerated: hidden == 2 || hidden == 3))
            }
        }
        if let clash = NameSpellings.clash(in: raw.map(\.name)) {
            return .failure(Skip(reason: .ambiguousName(NameSpellings.columnClash(clash.earlier, clash.later))))
        }
        let database = try connection.database
        for index in raw.indices {
            var collation: UnsafePointer<CChar>?
            let result = sqlite3_table_column_metadata(database, "main", name, raw[index].name, nil, &collation,
                                                       nil, nil, nil)
            if result == SQLITE_OK, let collation { raw[index].collation = String(cString: collation) }
        }

        var taken: [String: String] = [:]
        for column in raw { taken[SQLName.folded(column.name)] = column.name }
        let primaryKey = raw.filter { $0.primaryKeyPosition > 0 }.sorted { $0.primaryKeyPosition < $1.primaryKeyPosition }
        var key: TableKey?
        var recorded = kinds[name] ?? [:]
        var skipDetail = ""
        var taggedKeys = false
        if primaryKey.count == 1, let column = primaryKey.first {
            let affinity = ColumnAffinity(declaredType: column.declaredType, strict: strict)
            if affinity == .real {
                skipDetail = "its primary key \(String(reflecting: column.name)) has REAL affinity, "
                    + "and identifiers are integers, strings or bytes"
            } else {
                key = .column(name: column.name, affinity: affinity,
                              needsBinaryCollation: column.collation.uppercased() != "BINARY")
            }
        } else if primaryKey.count > 1 {
            let columns = primaryKey.map { column in
                KeyColumn(name: column.name, affinity: ColumnAffinity(declaredType: column.declaredType, strict: strict),
                          needsBinaryCollation: column.collation.uppercased() != "BINARY")
            }
            if let real = columns.first(where: { $0.affinity == .real }) {
                skipDetail = "its primary key column \(String(reflecting: real.name)) has REAL affinity, "
                    + "and identifier components are integers, strings or bytes"
            } else {
                key = .composite(columns)
            }
        }
        if key == nil, !withoutRowid, primaryKey.isEmpty,
           let column = raw.first(where: { $0.name == DatabaseSchema.createdKeyColumn && !$0.isGenerated }),
           let index = try keyIndex(name, connection) {
            // The form of the tables the store creates: a rowid table with a unique index on persist_id.
            key = .column(name: column.name, affinity: ColumnAffinity(declaredType: column.declaredType, strict: strict),
                          needsBinaryCollation: column.collation.uppercased() != "BINARY")
            recorded = recordedKinds(name, keyIndex: index, kinds)
            // The key column's own record (it is no attribute) says its keys are tagged.
            taggedKeys = recorded[column.name] != nil
        }
        if key == nil {
            if withoutRowid {
                return .failure(Skip(reason: .noUsableKey(skipDetail + " and it is a WITHOUT ROWID table")))
            }
            guard let alias = SQLName.rowidNames.first(where: { taken[$0] == nil }) else {
                return .failure(Skip(reason: .noUsableKey(
                    (skipDetail.isEmpty ? "" : skipDetail + ", and ") + "columns named rowid, _rowid_ and oid hide its rowid")))
            }
            key = .rowid(alias: alias)
            taken[alias] = alias
        }
        guard let key else { return .failure(Skip(reason: .noUsableKey(skipDetail))) }

        var keyNames: Set<String> = []
        if case .column(let name, _, _) = key { keyNames = [name] }
        keyNames.formUnion(key.components.map(\.name))
        // Generated columns cannot be written, and an empty name cannot be an attribute: both stay out.
        let columns = raw.filter { !$0.isGenerated && !$0.name.isEmpty && !keyNames.contains($0.name) }.map { column -> ColumnSchema in
            let affinity = ColumnAffinity(declaredType: column.declaredType, strict: strict)
            let needsBinaryCollation = column.collation.uppercased() != "BINARY"
            let storage: ColumnSchema.Storage
            var readsDecimals = false
            var dateForm: DateText.Form?
            var holdsJSON = false
            // A recorded kind counts only for a column as the store creates it: no affinity (NUMERIC
            // for decimals, and for booleans in a column declared `boolean`), BINARY.
            if !needsBinaryCollation, let kind = recorded[column.name], kind != ColumnSchema.jsonRecord,
               affinity == .none || (affinity == .numeric && kind == .typed(.decimal))
                || (affinity == .numeric && kind == .typed(.bool) && ColumnSchema.declaresBoolean(column.declaredType)) {
                storage = kind
            } else {
                storage = .legacy(affinity)
                readsDecimals = affinity == .numeric && ColumnSchema.declaresScale(column.declaredType)
                if recorded[column.name] == .typed(.date) { dateForm = DateText.form(ofDeclaredType: column.declaredType) }
                holdsJSON = recorded[column.name] == ColumnSchema.jsonRecord && JSONText.isJSONType(column.declaredType)
            }
            return ColumnSchema(name: column.name, storage: storage, needsBinaryCollation: needsBinaryCollation,
                                hasDefault: column.hasDefault, readsDecimals: readsDecimals, dateForm: dateForm,
                                holdsJSON: holdsJSON)
        }
        let hasTriggers = try connection.integer(
            "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = ?1)", [.text(name)],
            operation: operation) != 0
        return .success(TableSchema(name: name, key: key, columns: columns, takenNames: taken, isStrict: strict,
                                    hasTriggers: hasTriggers, taggedKeys: taggedKeys))
    }

    /// The kinds recorded for `table`'s columns. A table the store created that another connection
    /// renamed since (`ALTER TABLE … RENAME TO`) keeps its key index, named after the item type it
    /// was created for, and the kinds recorded under that name; those recorded under its own name
    /// since are newer.
    private static func recordedKinds(
        _ table: String, keyIndex: String, _ kinds: [String: [String: ColumnSchema.Storage]]
    ) -> [String: ColumnSchema.Storage] {
        let own = kinds[table] ?? [:]
        guard let original = DatabaseSchema.itemType(ofKeyIndex: keyIndex), original != table else { return own }
        return (kinds[original] ?? [:]).merging(own) { _, newer in newer }
    }

    /// The name of a unique index of `table`, without a WHERE clause, on exactly its
    /// ``DatabaseSchema/createdKeyColumn`` column with BINARY collation (the store's own first);
    /// `nil` when it has none.
    private static func keyIndex(_ table: String, _ connection: SQLiteConnection) throws -> String? {
        var names: [String] = []
        try connection.withStatement(
            """
            SELECT list.name FROM pragma_index_list(?1, 'main') AS list
            WHERE list."unique" = 1 AND list.partial = 0
              AND (SELECT count(*) FROM pragma_index_xinfo(list.name, 'main') WHERE key = 1) = 1
              AND EXISTS (SELECT 1 FROM pragma_index_xinfo(list.name, 'main')
                          WHERE key = 1 AND name = ?2 AND upper(coll) = 'BINARY')
            """,
            [.text(table), .text(DatabaseSchema.createdKeyColumn)]
        ) { statement in
            while try statement.step(operation) { names.append(statement.text(0)) }
        }
        return names.first(where: { DatabaseSchema.itemType(ofKeyIndex: $0) != nil }) ?? names.first
    }

    private static func loadKinds(_ connection: SQLiteConnection) throws -> [String: [String: ColumnSchema.Storage]] {
        var kinds: [String: [String: ColumnSchema.Storage]] = [:]
        try connection.withStatement(
            "SELECT table_name, column_name, kind FROM \(SQLName.quoted(DatabaseSchema.metadataTable))"
        ) { statement in
            while try statement.step(operation) {
                let table = statement.text(0)
                let column = statement.text(1)
                let name = statement.text(2)
                if name == DatabaseSchema.taggedKeysKind, column == DatabaseSchema.createdKeyColumn {
                    kinds[table, default: [:]][column] = .mixed
                    continue
                }
                if name == ColumnKind.mixedName {
                    kinds[table, default: [:]][column] = .mixed
                    continue
                }
                if name == JSONText.kindName {
                    kinds[table, default: [:]][column] = ColumnSchema.jsonRecord
                    continue
                }
                guard let kind = ColumnKind(rawValue: name) else {
                    throw DataStoreError(
                        .unsupported,
                        "the column \(String(reflecting: column)) of table \(String(reflecting: table)) in the SQLite "
                            + "database at \(connection.path) is recorded with the kind \(String(reflecting: name)), "
                            + "which this version of Persist does not know; open the file with a newer version",
                        path: connection.path)
                }
                kinds[table, default: [:]][column] = .typed(kind)
            }
        }
        return kinds
    }
}
