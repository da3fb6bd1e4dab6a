/// The item types of one store's schema at one moment: adopted and created tables, the names
/// already taken, what was skipped, and the fingerprint that tells when the catalog changed.
struct StoreSchema: Sendable {
    /// The names of the store's own objects in its schema.
    static let tablesTable = "persist_tables"
    static let columnsTable = "persist_columns"
    static let dateType = "persist_date"
    static let indexesTable = "persist_indexes"
    static let relationsTable = "persist_relations"
    static let reservedNames: Set<String> = [tablesTable, columnsTable, dateType, indexesTable, relationsTable]

    /// The schema's name.
    let name: String
    /// Item type → table.
    var tables: [String: TableSchema] = [:]
    /// Every relation and type name in the schema: a new table must not take one.
    var takenNames: Set<String> = []
    /// Table name → the name of its `PRIMARY KEY` constraint, for every table of the schema that
    /// has one when it was loaded: a unique violation of it is a key taken (`alreadyExists`).
    var primaryKeyConstraints: [String: String] = [:]
    /// The relations between item types: declared ones, then adopted foreign keys.
    var relations: [StoredRelation] = []
    /// Relations that are not item types.
    var skipped: [SkippedTable] = []
    /// Whether the schema exists.
    var exists = false
    /// Whether the metadata tables exist.
    var hasMetadata = false
    /// The OID of the schema's `persist_date` type, once it exists.
    var dateTypeOID: UInt32?
    /// What the catalog looked like when this was loaded.
    var fingerprint = SchemaFingerprint()

    init(name: String) {
        self.name = name
    }

    /// `"schema"`.
    var quoted: String { SQLName.quoted(name) }

    /// `"schema"."name"`.
    func qualified(_ object: String) -> String {
        SQLName.qualified(name, object)
    }

    /// Whether `failure` names the `PRIMARY KEY` constraint of a table of this schema.
    func isPrimaryKey(_ failure: ServerFailure) -> Bool {
        guard failure.schema == name, let table = failure.table, let constraint = failure.constraint else { return false }
        return primaryKeyConstraints[table] == constraint
    }

    /// The table whose SQL name is `name`.
    func table(named name: String) -> TableSchema? {
        tables.values.first { $0.name == name }
    }
}

/// A cheap summary of the relations in a schema, their columns and their constraints: how many
/// catalog rows there are and the sum of the transaction IDs that last wrote them. Creating,
/// altering or dropping a table, and adding, dropping, renaming or retyping a column or changing
/// its NOT NULL all change it (the column changes rewrite only `pg_attribute` rows), and so do
/// adding and dropping a constraint (a foreign key may write only `pg_constraint` rows): rows a
/// change writes have a newer transaction ID than every row it replaces, so with the count equal
/// the sum grows. A write block compares it with the schema it has cached and reloads when they
/// differ.
struct SchemaFingerprint: Sendable, Hashable {
    /// The relations', their columns' and their constraints' catalog rows.
    var relations: Int64 = -1
    var transactionSum: Int64 = 0

    /// The query computing it for the schema named `$1`.
    static let query = """
        WITH relation AS (SELECT c.oid, c.xmin FROM pg_catalog.pg_class c \
        WHERE c.relnamespace = (SELECT n.oid FROM pg_catalog.pg_namespace n WHERE n.nspname = $1)) \
        SELECT ((SELECT count(*) FROM relation) \
        + (SELECT count(*) FROM pg_catalog.pg_attribute a WHERE a.attnum > 0 AND a.attrelid IN (SELECT oid FROM relation)) \
        + (SELECT count(*) FROM pg_catalog.pg_constraint k WHERE k.conrelid IN (SELECT oid FROM relation)))::int8, \
        ((SELECT coalesce(sum(xmin::text::int8), 0) FROM relation) \
        + (SELECT coalesce(sum(a.xmin::text::int8), 0) FROM pg_catalog.pg_attribute a \
        WHERE a.attnum > 0 AND a.attrelid IN (SELECT oid FROM relation)) \
        + (SELECT coalesce(sum(k.xmin::text::int8), 0) FROM pg_catalog.pg_constraint k \
        WHERE k.conrelid IN (SELECT oid FROM relation)))::int8
        """
}
