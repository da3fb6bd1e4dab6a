import Persist
import PersistSQL

/// Reads a schema from PostgreSQL's catalog: which tables are item types, their keys and columns
/// and the types Persist maps them to, the kinds the metadata tables record for the columns the
/// store created, and what was skipped.
///
/// It runs in whatever transaction the caller has open, so a read block sees the schema of its
/// own snapshot.
struct SchemaLoader {
    /// Runs statements and returns their results (a pipeline call on the caller's session).
    let run: ([PGCommand]) throws -> [PGResult]
    let schemaName: String
    /// Whether the database's default collation compares bytes ("C" or "POSIX", libc provider).
    let defaultCollationIsBytewise: Bool

    private static let operation = "Reading the schema"
    private static let namespace = "(SELECT n.oid FROM pg_catalog.pg_namespace n WHERE n.nspname = $1)"

    private static let relationsQuery = """
        SELECT c.oid::int8, c.relname::text, c.relkind::text, c.relispartition, c.relrowsecurity, \
        c.relkind = 'r' AND EXISTS (SELECT 1 FROM pg_catalog.pg_inherits i WHERE i.inhparent = c.oid) \
        FROM pg_catalog.pg_class c WHERE c.relnamespace = \(namespace)
        """
    private static let typesQuery = """
        SELECT t.oid::int8, t.typname::text FROM pg_catalog.pg_type t WHERE t.typnamespace = \(namespace)
        """
    private static let columnsQuery = """
        SELECT a.attrelid::int8, a.attname::text, a.atttypid::int8, a.atttypmod::int8, \
        coalesce(nullif(t.typbasetype, 0), a.atttypid)::int8, \
        (CASE WHEN t.typbasetype <> 0 THEN t.typtypmod ELSE a.atttypmod END)::int8, \
        a.atthasdef OR a.attidentity <> '', a.attgenerated <> '', \
        coalesce(co.collname::text, ''), coalesce(co.collisdeterministic, true), a.attidentity = 'a', \
        (a.attnotnull OR t.typnotnull) AND NOT a.atthasdef AND a.attidentity = '' AND a.attgenerated = '' \
        AND t.typdefaultbin IS NULL \
        FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c ON c.oid = a.attrelid \
        JOIN pg_catalog.pg_type t ON t.oid = a.atttypid \
        LEFT JOIN pg_catalog.pg_collation co ON co.oid = a.attcollation \
        WHERE c.relnamespace = \(namespace) AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped \
        ORDER BY a.attrelid, a.attnum
        """
    /// One row per primary key column, in key order (`pg_constraint.conkey`).
    private static let keysQuery = """
        SELECT k.conrelid::int8, u.position::int8, a.attname::text, k.condeferrable, \
        k.conname::text, c.relname::text \
        FROM pg_catalog.pg_constraint k CROSS JOIN LATERAL unnest(k.conkey) WITH ORDINALITY AS u(attnum, position) \
        JOIN pg_catalog.pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.attnum \
        JOIN pg_catalog.pg_class c ON c.oid = k.conrelid \
        WHERE k.contype = 'p' AND k.connamespace = \(namespace) \
        ORDER BY k.conrelid, u.position
        """
    /// Tables whose writes a constraint, trigger, rule or unique index may refuse or change at
    /// the statement: a foreign key checked only at commit (`INITIALLY DEFERRED`, as Persist makes
    /// them) refuses nothing there, but one checked at once also refuses deleting what it refers to.
    private static let guardedQuery = """
        SELECT k.conrelid::int8 FROM pg_catalog.pg_constraint k \
        WHERE k.connamespace = \(namespace) AND k.contype <> 'p' AND k.conrelid <> 0 \
        AND NOT (k.contype = 'f' AND k.condeferred) \
        UNION SELECT k.confrelid::int8 FROM pg_catalog.pg_constraint k \
        WHERE k.connamespace = \(namespace) AND k.contype = 'f' AND NOT k.condeferred \
        UNION SELECT g.tgrelid::int8 FROM pg_catalog.pg_trigger g JOIN pg_catalog.pg_class c ON c.oid = g.tgrelid \
        WHERE NOT g.tgisinternal AND c.relnamespace = \(namespace) \
        UNION SELECT r.ev_class::int8 FROM pg_catalog.pg_rewrite r JOIN pg_catalog.pg_class c ON c.oid = r.ev_class \
        WHERE r.rulename <> '_RETURN' AND c.relnamespace = \(namespace) \
        UNION SELECT i.indrelid::int8 FROM pg_catalog.pg_index i JOIN pg_catalog.pg_class c ON c.oid = i.indrelid \
        WHERE i.indisunique AND NOT i.indisprimary AND c.relnamespace = \(namespace)
        """

    /// Loads the schema.
    func load() throws -> StoreSchema {
        let parameter: [PGValue] = [.text(schemaName)]
        // The fingerprint first: in a READ COMMITTED transaction each statement sees what was
        // committed when it began, so a change committed while the catalog is read makes the
        // fingerprint older than what was read, never newer, and the next check reads it again.
        let results = try run([
            PGCommand(SchemaFingerprint.query, parameter, prepared: true, operation: Self.operation),
            PGCommand(Self.relationsQuery, parameter, prepared: true, operation: Self.operation),
            PGCommand(Self.typesQuery, parameter, prepared: true, operation: Self.operation),
            PGCommand(Self.columnsQuery, parameter, prepared: true, operation: Self.operation),
            PGCommand(Self.keysQuery, parameter, prepared: true, operation: Self.operation),
            PGCommand(Self.guardedQuery, parameter, prepared: true, operation: Self.operation),
            PGCommand("SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = $1)", parameter,
                      prepared: true, operation: Self.operation),
            PGCommand(CatalogTypes.query, parameter, prepared: true, operation: Self.operation),
            PGCommand(ForeignKey.query, parameter, prepared: true, operation: Self.operation),
        ])
        var schema = StoreSchema(name: schemaName)
        schema.exists = try results[6].bool(0, 0) ?? false
        schema.fingerprint = SchemaFingerprint(relations: try results[0].int64(0, 0) ?? 0,
                                               transactionSum: try results[0].int64(0, 1) ?? 0)
        let relations = try Relation.rows(results[1])
        for row in 0..<results[2].rowCount {
            let name = try results[2].text(row, 1) ?? ""
            schema.takenNames.insert(name)
            if name == StoreSchema.dateType { schema.dateTypeOID = UInt32(truncatingIfNeeded: try results[2].int64(row, 0) ?? 0) }
        }
        for relation in relations.values { schema.takenNames.insert(relation.name) }
        let columns = try CatalogColumn.rows(results[3])
        var keys: [Int64: [String]] = [:]
        var deferrableKeys: Set<Int64> = []
        for row in 0..<results[4].rowCount {
            let relation = try results[4].int64(row, 0) ?? 0
            keys[relation, default: []].append(try results[4].text(row, 2) ?? "")
            if try results[4].bool(row, 3) ?? false { deferrableKeys.insert(relation) }
            if let constraint = try results[4].text(row, 4), let table = try results[4].text(row, 5) {
                schema.primaryKeyConstraints[table] = constraint
            }
        }
        var guarded: Set<Int64> = []
        for row in 0..<results[5].rowCount { guarded.insert(try results[5].int64(row, 0) ?? 0) }
        for relation in relations.values where relation.rowSecurity { guarded.insert(relation.oid) }

        let tablesByName = relations.values.filter { $0.kind == "r" || $0.kind == "p" }
        schema.hasMetadata = tablesByName.contains { $0.name == StoreSchema.tablesTable }
            && tablesByName.contains { $0.name == StoreSchema.columnsTable }
        let hasRelations = tablesByName.contains { $0.name == StoreSchema.relationsTable }
        let metadata = schema.hasMetadata ? try loadMetadata(schema, relations: hasRelations) : Metadata()

        var builder = SchemaBuilder(schema: schema, metadata: metadata, defaultCollationIsBytewise: defaultCollationIsBytewise)
        builder.catalogTypes = try CatalogTypes(results[7])
        for relation in relations.values.sorted(by: { ByteOrder.precedes($0.name, $1.name) }) {
            builder.add(relation, columns: columns[relation.oid] ?? [], key: keys[relation.oid],
                        isGuarded: guarded.contains(relation.oid))
        }
        var loaded = avoidingConflictClause(in: builder.schema, relations: relations, columns: columns,
                                            deferrableKeys: deferrableKeys)
        loaded.relations = StoredRelation.build(declared: metadata.relations, foreignKeys: try ForeignKey.rows(results[8]),
                                                schema: loaded)
        return loaded
    }

    /// `schema` with the tables that must be written without `ON CONFLICT` marked so (see
    /// ``TableSchema/avoidsConflictClause``): a `DEFERRABLE` key, or a column an insert must give
    /// a value and Persist cannot.
    private func avoidingConflictClause(in schema: StoreSchema, relations: [Int64: Relation],
                                        columns: [Int64: [CatalogColumn]], deferrableKeys: Set<Int64>) -> StoreSchema {
        let candidates = deferrableKeys.union(columns.filter { $0.value.contains(where: \.requiresValue) }.keys)
        guard !candidates.isEmpty else { return schema }
        var itemTypes: [String: String] = [:]
        for (itemType, table) in schema.tables { itemTypes[table.name] = itemType }
        var marked = schema
        for oid in candidates {
            guard let name = relations[oid]?.name, let itemType = itemTypes[name],
                  let table = schema.tables[itemType] else { continue }
            let unmapped = Set(table.unmappedColumns)
            if deferrableKeys.contains(oid)
                || (columns[oid] ?? []).contains(where: { $0.requiresValue && unmapped.contains($0.name) }) {
                marked.tables[itemType] = table.avoidingConflictClause(schema: schemaName)
            }
        }
        return marked
    }

    /// What the metadata tables record.
    struct Metadata {
        /// Table name → (item type, key kind) of the tables the store created.
        var tables: [String: (itemType: String, keyKind: KeyKind)] = [:]
        /// Table name → column name → (attribute, kind) of the columns the store created.
        var columns: [String: [String: (attribute: String, kind: CreatedKind)]] = [:]
        /// The relations declared through the store, oldest first.
        var relations: [DataStoreRelation] = []
    }

    private func loadMetadata(_ schema: StoreSchema, relations: Bool) throws -> Metadata {
        let relationsTable = schema.qualified(StoreSchema.relationsTable)
        let results = try run([
            PGCommand("SELECT table_name, item_type, key_kind FROM \(schema.qualified(StoreSchema.tablesTable))",
                      prepared: true, operation: Self.operation),
            PGCommand("SELECT table_name, column_name, attribute, kind FROM \(schema.qualified(StoreSchema.columnsTable))",
                      prepared: true, operation: Self.operation),
        ] + (relations ? [PGCommand(StoredRelation.declarationsQuery(relationsTable), prepared: true,
                                    operation: Self.operation)] : []))
        var metadata = Metadata()
        for row in 0..<results[0].rowCount {
            let table = try results[0].text(row, 0) ?? ""
            let kindName = try results[0].text(row, 2) ?? ""
            guard let kind = KeyKind(rawValue: kindName) else { throw unknownKind(kindName, table: table, column: nil) }
            metadata.tables[table] = (try results[0].text(row, 1) ?? "", kind)
        }
        for row in 0..<results[1].rowCount {
            let table = try results[1].text(row, 0) ?? ""
            let column = try results[1].text(row, 1) ?? ""
            let kindName = try results[1].text(row, 3) ?? ""
            guard let kind = CreatedKind(rawValue: kindName) else { throw unknownKind(kindName, table: table, column: column) }
            metadata.columns[table, default: [:]][column] = (try results[1].text(row, 2) ?? "", kind)
        }
        if relations { metadata.relations = try StoredRelation.declarations(results[2], table: relationsTable) }
        return metadata
    }

    private func unknownKind(_ kind: String, table: String, column: String?) -> DataStoreError {
        let place = column.map { "the column \(String(reflecting: $0)) of table \(String(reflecting: table))" }
            ?? "the key of table \(String(reflecting: table))"
        return DataStoreError(
            .unsupported,
            "\(place) in schema \(String(reflecting: schemaName)) is recorded with the kind \(String(reflecting: kind)), "
                + "which this version of Persist does not know; use a newer version")
    }
}

/// A row of the relations query.
struct Relation {
    let oid: Int64
    let name: String
    /// `r` table, `p` partitioned table, `v` view, `m` materialized view, `f` foreign table, …
    let kind: String
    let isPartition: Bool
    let rowSecurity: Bool
    /// Whether other tables inherit from this plain table (`INHERITS`), whose rows its queries include.
    let hasInheritors: Bool

    static func rows(_ result: PGResult) throws -> [Int64: Relation] {
        var relations: [Int64: Relation] = [:]
        for row in 0..<result.rowCount {
            let oid = try result.int64(row, 0) ?? 0
            relations[oid] = Relation(oid: oid, name: try result.text(row, 1) ?? "", kind: try result.text(row, 2) ?? "",
                                      isPartition: try result.bool(row, 3) ?? false,
                                      rowSecurity: try result.bool(row, 4) ?? false,
                                      hasInheritors: try result.bool(row, 5) ?? false)
        }
        return relations
    }
}

/// A row of the columns query.
struct CatalogColumn {
    let name: String
    /// The declared type (a domain's own OID).
    let typeOID: UInt32
    /// The base type, for a domain; otherwise the declared type.
    let baseTypeOID: UInt32
    let typeModifier: Int64
    let hasDefault: Bool
    let isGenerated: Bool
    let collation: String
    let isDeterministic: Bool
    /// Whether the column is an identity column `GENERATED ALWAYS`, which takes a given value
    /// only from an `INSERT … OVERRIDING SYSTEM VALUE`.
    let isIdentityAlways: Bool
    /// Whether an insert must give the column a value: it is `NOT NULL` (or of a `NOT NULL`
    /// domain) and has no default, and is neither an identity nor a generated column.
    let requiresValue: Bool

    static func rows(_ result: PGResult) throws -> [Int64: [CatalogColumn]] {
        var columns: [Int64: [CatalogColumn]] = [:]
        for row in 0..<result.rowCount {
            let relation = try result.int64(row, 0) ?? 0
            columns[relation, default: []].append(CatalogColumn(
                name: try result.text(row, 1) ?? "",
                typeOID: UInt32(truncatingIfNeeded: try result.int64(row, 2) ?? 0),
                baseTypeOID: UInt32(truncatingIfNeeded: try result.int64(row, 4) ?? 0),
                typeModifier: try result.int64(row, 5) ?? -1,
                hasDefault: try result.bool(row, 6) ?? false,
                isGenerated: try result.bool(row, 7) ?? false,
                collation: try result.text(row, 8) ?? "",
                isDeterministic: try result.bool(row, 9) ?? true,
                isIdentityAlways: try result.bool(row, 10) ?? false,
                requiresValue: try result.bool(row, 11) ?? false))
        }
        return columns
    }
}
