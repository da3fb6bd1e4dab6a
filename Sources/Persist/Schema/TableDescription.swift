/// The schema of one SQL table that holds an item type, as the engine that adopted it describes
/// it, so that another SQL engine can recreate it: names, the key column, declared types,
/// NOT NULL, UNIQUE (of one column or several) and secondary indexes. Engine-neutral: declared types are the source
/// engine's words, and ``SQLTypeMapping`` translates them between engines.
///
/// ```swift
/// let cache = TableDescription(
///     itemType: "MANIFEST_CACHE",
///     key: .init(name: "key", declaredType: "STRING", notNull: true),
///     columns: [.init(name: "value", declaredType: "BLOB", notNull: true)])
/// ```
package struct TableDescription: Sendable, Equatable {
    /// One column.
    package struct Column: Sendable, Equatable {
        package var name: String
        /// The declared type as the source engine spells it (`""` for none).
        package var declaredType: String
        package var notNull: Bool
        /// Whether a single-column UNIQUE constraint holds the column.
        package var unique: Bool

        package init(name: String, declaredType: String, notNull: Bool = false, unique: Bool = false) {
            self.name = name
            self.declaredType = declaredType
            self.notNull = notNull
            self.unique = unique
        }
    }

    /// A secondary index (not the key's, not a UNIQUE constraint's).
    package struct Index: Sendable, Equatable {
        package var name: String
        package var columns: [String]
        package var unique: Bool

        package init(name: String, columns: [String], unique: Bool) {
            self.name = name
            self.columns = columns
            self.unique = unique
        }
    }

    /// The item type, which is the table's name.
    package var itemType: String
    /// The key column; `nil` for a table keyed by a rowid it does not name.
    package var key: Column?
    /// The names SQLite gives a rowid, in the order it prefers them: a table's rowid goes by the
    /// first no column takes (SQLite compares names without case).
    package static let rowidNames = ["rowid", "_rowid_", "oid"]
    /// The key under which SQLite takes two names for one: it folds ASCII letters only, so `Name`
    /// and `name` are one column, while `É` and `é` are two.
    package static func folded(_ name: String) -> String {
        guard name.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return name }
        return String(decoding: name.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
    /// The other columns, in table order.
    package var columns: [Column]
    package var indexes: [Index]
    /// The UNIQUE constraints over several columns, each its columns in order (a single-column one
    /// is ``Column/unique``).
    package var uniqueConstraints: [[String]]
    /// Whether rows are stored in key order without a rowid (SQLite's `WITHOUT ROWID`).
    package var withoutRowid: Bool
    /// Where the key column sits among the columns (0 is first), so `SELECT *` keeps its order.
    package var keyPosition: Int
    /// The engine whose words the declared types are.
    package var dialect: SQLDialect

    package init(itemType: String, key: Column?, columns: [Column], indexes: [Index] = [],
                 uniqueConstraints: [[String]] = [], withoutRowid: Bool = false, keyPosition: Int = 0,
                 dialect: SQLDialect = .sqlite) {
        self.itemType = itemType
        self.key = key
        self.columns = columns
        self.indexes = indexes
        self.uniqueConstraints = uniqueConstraints
        self.withoutRowid = withoutRowid
        self.keyPosition = keyPosition
        self.dialect = dialect
    }

    /// The same table with the named columns' declared types (the key's too, when named) replaced
    /// by `fallback`.
    package func replacingTypes(of names: Set<String>, with fallback: String) -> TableDescription {
        var copy = self
        if let key, names.contains(key.name) { copy.key?.declaredType = fallback }
        copy.columns = columns.map { column in
            var changed = column
            if names.contains(column.name) { changed.declaredType = fallback }
            return changed
        }
        return copy
    }
}

/// A reader that can describe the SQL tables it adopted.
package protocol SchemaDescribingReader: StoreReader {
    /// The schema of the table holding `itemType`, when it is an adopted SQL table worth
    /// recreating (not one the store created for itself); `nil` otherwise.
    func tableDescription(ofType itemType: String) throws -> TableDescription?

    /// The item types ``tableDescription(ofType:)`` describes, found without reading any item.
    func describedTypes() throws -> [String]

    /// The columns of the tables of `itemTypes` (every table when `nil`) that hold values no
    /// item carries, each described for a message as `"table"."column"` and, in parentheses,
    /// why it is no attribute: a copy of the items would lose their values. In SQLite, a column
    /// with an empty name (`(an empty name)`); in PostgreSQL, a column of a type Persist does
    /// not map to values (its type: `(inet)`).
    func columnsOutsideItems(ofTypes itemTypes: [String]?) throws -> [String]

    /// What the adopted table of `itemType` holds that a copy does not carry (column defaults,
    /// CHECK constraints, foreign keys, triggers, partial indexes, …), each described for a note
    /// (`the trigger "posts_touch"`), so that a migration reports it rather than drop it silently.
    func schemaNotCarried(ofType itemType: String) throws -> [String]

    /// ``tableDescription(ofType:)`` and ``schemaNotCarried(ofType:)`` at once, for a copy: a
    /// reader that reads the items to answer both (a native GDBM file loosens the table it recorded
    /// to the items it holds now) reads them once.
    func copyDescription(ofType itemType: String) throws -> (description: TableDescription, notCarried: [String])?
}

extension SchemaDescribingReader {
    /// No column outside the items: every column of an engine that can name no such column is an
    /// attribute or the key.
    package func columnsOutsideItems(ofTypes itemTypes: [String]?) throws -> [String] { [] }

    /// Nothing left behind: an engine that describes only what a copy recreates.
    package func schemaNotCarried(ofType itemType: String) throws -> [String] { [] }

    /// The description, then what it leaves behind: two questions for an engine that answers
    /// them from its catalog.
    package func copyDescription(ofType itemType: String) throws -> (description: TableDescription, notCarried: [String])? {
        guard let description = try tableDescription(ofType: itemType) else { return nil }
        return (description, try schemaNotCarried(ofType: itemType))
    }
}

/// A writer that can recreate a described table before a migration loads it.
package protocol SchemaRecreatingWriter: StoreWriter {
    /// Creates the table of `description` (translating declared types for its engine), so that the
    /// items that follow are loaded into it; secondary indexes are built after the load. Returns
    /// `false` when the type already has a table, which is then left as it is.
    /// Called again for each later write block of the same load, so that each writer knows the
    /// table's declared types and can fall back.
    func recreate(_ description: TableDescription) throws -> Bool

    /// The columns whose declared type gave way to a lossless fallback so far, because a value did
    /// not fit it.
    var columnFallbacks: [MigrationReport.Fallback] { get }
}

/// The SQL engine a declared type is spelled for.
package enum SQLDialect: String, Sendable, Equatable {
    case sqlite, postgresql
}
