import Persist
import PersistSQL

/// The item types of one database at one schema version: adopted and created tables, the names
/// already taken, and what was skipped.
struct DatabaseSchema: Sendable {
    /// The name of the store's metadata table, which records the kind of every column it created.
    static let metadataTable = "persist_columns"
    /// The key column of the tables the store creates.
    static let createdKeyColumn = "persist_id"
    /// The name of the store's table of declared indexes.
    static let indexTable = "persist_indexes"
    /// The kind the metadata table records for the ``createdKeyColumn`` of a created table whose
    /// keys are tagged so that it can hold composite identifiers (see the "SQLite storage format"
    /// article); a version of Persist that does not know it refuses the file.
    static let taggedKeysKind = "tagged-keys"
    /// The name of the store's table of PostgreSQL enum types (see ``EnumTypeTable``).
    static let enumTable = "persist_enum_types"
    /// The name of the store's table of declared relations.
    static let relationTable = "persist_relations"
    /// The store's own tables, which are never item types.
    static let ownTables: Set<String> = [metadataTable, indexTable, enumTable, relationTable]

    /// The unique index on ``createdKeyColumn`` of a table the store creates for `itemType`.
    static func keyIndexName(for itemType: String) -> String {
        keyIndexPrefix + itemType
    }

    /// The item type a key index was created for, or `nil` for an index not named by the store.
    static func itemType(ofKeyIndex index: String) -> String? {
        index.hasPrefix(keyIndexPrefix) ? String(index.dropFirst(keyIndexPrefix.count)) : nil
    }

    private static let keyIndexPrefix = "persist_key:"

    /// Item type → table; names match exactly.
    var tables: [String: TableSchema] = [:]
    /// Every table, view and index name (case-folded, as SQLite compares them) → the name as declared.
    var takenNames: [String: String] = [:]
    /// Tables and views that are not item types.
    var skipped: [SkippedTable] = []
    /// Whether the metadata table exists.
    var hasMetadataTable = false
    /// Whether the table of declared indexes exists.
    var hasIndexTable = false
    /// Item type → the indexes declared through the store, in declaration order.
    var declaredIndexes: [String: [DeclaredIndex]] = [:]
    /// Item type → the indexes of the table the store did not declare: a legacy program's
    /// `CREATE INDEX` and `UNIQUE` constraints.
    var adoptedIndexes: [String: [DataStoreIndex]] = [:]
    /// Whether the table of declared relations exists.
    var hasRelationTable = false
    /// The relations declared through the store, in declaration order.
    var declaredRelations: [DeclaredRelation] = []
    /// The foreign keys of the tables that the store did not declare, as relations (see
    /// `SchemaLoader.loadRelations`).
    var adoptedRelations: [DataStoreRelation] = []

    /// Whether a table has a foreign key that is no relation (one to `UNIQUE` columns, say).
    var hasUnlistedForeignKeys = false

    /// Whether any table has a foreign key: an adopted one, a declared relation made one, or one
    /// that is no relation.
    var hasForeignKeys: Bool {
        hasUnlistedForeignKeys || !adoptedRelations.isEmpty || declaredRelations.contains(where: \.isForeignKey)
    }

    /// Every relation: the declared ones first, then the adopted foreign keys.
    var relations: [DataStoreRelation] {
        declaredRelations.map(\.relation) + adoptedRelations
    }

    /// Every index of `itemType`: the declared ones first, then the adopted ones.
    func indexes(ofType itemType: String) -> [DataStoreIndex] {
        (declaredIndexes[itemType] ?? []).map { $0.index(of: itemType) } + (adoptedIndexes[itemType] ?? [])
    }

    /// The declared indexes of `itemType` that exist only as a declaration, because the table or
    /// one of the columns does not exist yet.
    func pendingIndexes(ofType itemType: String) -> [DeclaredIndex] {
        (declaredIndexes[itemType] ?? []).filter { takenNames[SQLName.folded($0.name)] == nil }
    }

    /// The name a recreated index takes in this database: its source's name, unless SQLite reserves
    /// it (`sqlite_…`, then `index_` goes before it) or the database has a table, view or index of
    /// that name without regard to ASCII case (as a PostgreSQL source may have, where `T_a` and
    /// `t_a` are two names); then the first of `name_2`, `name_3`, … that it has not.
    func indexName(for wanted: String) -> String {
        let base = SQLName.isReservedBySQLite(wanted) ? "index_" + wanted : wanted
        var name = base
        var number = 2
        while takenNames[SQLName.folded(name)] != nil {
            name = "\(base)_\(number)"
            number += 1
        }
        return name
    }

    /// A name for a new index that no table, view or index of the database has.
    func freshIndexName() -> String {
        var number = declaredIndexes.values.reduce(0) { $0 + $1.count } + 1
        while takenNames[SQLName.folded("persist_index_\(number)")] != nil { number += 1 }
        return "persist_index_\(number)"
    }

    /// Why the store cannot create a table for `itemType`, or `nil` when it can.
    func reasonNotToCreate(_ itemType: String) -> String? {
        if DatabaseSchema.ownTables.contains(SQLName.folded(itemType)) {
            return "\(SQLName.folded(itemType)) is the name of one of the store's own tables"
        }
        if SQLName.isReservedBySQLite(itemType) {
            return "SQLite reserves table names starting with \"sqlite_\""
        }
        let index = DatabaseSchema.keyIndexName(for: itemType)
        if let taken = takenNames[SQLName.folded(index)] {
            return "the table's key index would be named \(String(reflecting: index)), and the database already has "
                + "\(String(reflecting: taken))"
        }
        if let taken = takenNames[SQLName.folded(itemType)] {
            if taken == itemType {
                return "the database already has a table, view or index with this name that is not an item type"
            }
            return "SQLite compares table names without regard to ASCII case, and the database already has "
                + "\(String(reflecting: taken))"
        }
        return nil
    }
}

/// An index declared through the store, as recorded in its table of declared indexes.
struct DeclaredIndex: Sendable, Equatable {
    /// The SQL name of the index (created, or reserved while the index is pending).
    let name: String
    let attributes: [String]
    let isUnique: Bool

    func index(of itemType: String) -> DataStoreIndex {
        DataStoreIndex(itemType: itemType, attributes: attributes, isUnique: isUnique, name: name)
    }
}

/// A relation declared through the store, as recorded in its table of declared relations.
struct DeclaredRelation: Sendable, Equatable {
    let relation: DataStoreRelation
    /// Whether the referring table has it as a foreign key (named after the relation), which
    /// SQLite enforces and whose delete rule it carries out.
    var isForeignKey: Bool
}
