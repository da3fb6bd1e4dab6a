import Persist

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
package struct TableDescription: CarriedSchema, Equatable {
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
    /// The key column; `nil` for a table keyed by a rowid it does not name, by several columns
    /// (``primaryKey``), or by none (``isKeyless``).
    package var key: Column?
    /// The columns, in key order, of a primary key over several columns, each one of ``columns``
    /// (which stay in table order); empty otherwise. Items of such a table have composite
    /// identifiers whose components are these columns' values.
    package var primaryKey: [String]
    /// Whether the table has no key at all (no primary key, and no rowid that the items'
    /// identifiers are meant to keep): its items' identifiers only tell rows apart, and a target
    /// recreates the table without a key, keeping duplicate rows.
    package var isKeyless: Bool
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
    package var dialect: SQLDialectName
    /// The PostgreSQL enum types the columns' declared types name (an enum's name, or its name
    /// and `[]`), each with its labels in order; empty when none. A PostgreSQL target creates
    /// them before the table.
    package var enumTypes: [String: [String]] = [:]

    package init(itemType: String, key: Column?, columns: [Column], indexes: [Index] = [],
                 uniqueConstraints: [[String]] = [], withoutRowid: Bool = false, keyPosition: Int = 0,
                 dialect: SQLDialectName = .sqlite, primaryKey: [String] = [], isKeyless: Bool = false) {
        self.itemType = itemType
        self.key = key
        self.primaryKey = primaryKey
        self.isKeyless = isKeyless
        self.columns = columns
        self.indexes = indexes
        self.uniqueConstraints = uniqueConstraints
        self.withoutRowid = withoutRowid
        self.keyPosition = keyPosition
        self.dialect = dialect
    }

    /// ``isKeyless``: the identifiers of a keyless table's items only tell its rows apart.
    package var identifiersAreRowLocators: Bool { isKeyless }

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

/// The SQL engine a declared type is spelled for.
package enum SQLDialectName: String, Sendable, Equatable {
    case sqlite, postgresql
}
