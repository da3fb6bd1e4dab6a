import Persist
import PersistSQL

extension SQLiteReader {
    /// The declared and adopted indexes of the item type's table.
    func indexes(ofType itemType: String) throws -> [DataStoreIndex]? {
        try checkedSchema.indexes(ofType: itemType)
    }
}

extension SQLiteWriter: IndexDeclaringWriter {
    /// SQLite's unique indexes refuse a violating statement and leave the transaction as it was.
    var enforcesUniqueIndexes: Bool { true }

    var location: String { path }

    /// Declares an index: recorded in the table of declared indexes, and created with `CREATE
    /// INDEX` at once when its table and columns exist, otherwise as soon as they do.
    func ensureIndex(_ index: DataStoreIndex) throws -> Bool? {
        try declareIndex(index)
    }

    /// The record and the index in one savepoint: a refused index leaves no declaration behind.
    func declare(_ index: DataStoreIndex) throws -> String {
        let declared = DeclaredIndex(name: schema.freshIndexName(), attributes: index.attributes, isUnique: index.isUnique)
        let before = schema
        do {
            try inSavepoint {
                try SchemaEditor(connection: connection).record(declared, ofType: index.itemType, in: &schema)
                if let table = schema.tables[index.itemType] {
                    try SchemaEditor(connection: connection).create(declared, on: table, in: &schema)
                }
            }
        } catch {
            schema = before
            throw error
        }
        return declared.name
    }

    /// An index over a name no attribute of its table can have (the key column of a table keyed by
    /// one column, a generated column, a column's name in another ASCII case), which writes refuse
    /// too: its index would never be created, yet be reported.
    func refusal(of index: DataStoreIndex) throws -> DataStoreError? {
        guard let table = schema.tables[index.itemType] else { return nil }
        // A column of a composite key can be indexed: a relation over it (a link table's) needs one.
        for attribute in index.attributes
        where table.columnIndex[attribute] == nil && !table.key.components.contains(where: { $0.name == attribute }) {
            guard let column = table.takenNames[SQLName.folded(attribute)] else { continue }
            return DataStoreError(
                .invalidArgument,
                "cannot declare the \(index): \(String(reflecting: attribute)) cannot be an attribute of table "
                    + "\(String(reflecting: table.name)) in the SQLite database at \(path), whose column "
                    + "\(String(reflecting: column)) is its key, a generated column, or takes the name in another case; "
                    + "nothing was declared. Index attributes the items hold",
                path: path)
        }
        return nil
    }

    /// Creates the pending indexes of `itemType` whose columns now all exist.
    func materializeIndexes(ofType itemType: String) throws {
        guard let table = schema.tables[itemType] else { return }
        for declared in schema.pendingIndexes(ofType: itemType)
        where declared.attributes.allSatisfy({ table.columnIndex[$0] != nil }) {
            try SchemaEditor(connection: connection).create(declared, on: table, in: &schema)
            noteSchemaChange("created the index \(String(reflecting: declared.name)) of table \(String(reflecting: itemType))")
        }
        try materializeRelations(touching: itemType)
    }

    /// Names the items of a unique violation SQLite reported for `item`: the item and the one
    /// holding its values for a unique index, when one is found by Persist's comparisons (then
    /// with the message every store gives).
    func namingUniqueViolation(_ error: DataStoreError, _ item: Item) throws -> DataStoreError {
        let unique = schema.indexes(ofType: item.itemType).filter(\.isUnique)
        // As predicates compare values first, then as the table's own columns do.
        for byColumns in [false, true] {
            for index in unique {
                guard let values = UniqueIndexes.values(of: item, for: index) else { continue }
                let holder = byColumns ? try holderByColumns(of: item, values: values, for: index)
                    : try UniqueIndexes.holder(of: values, for: index, in: self, excluding: [item.id])
                guard let holder else { continue }
                let items = [item.reference, ItemReference(itemType: item.itemType, id: holder)]
                return UniqueIndexes.reported(UniqueIndexes.violation(index, items, values: values), by: error, at: path)
            }
        }
        var named = error
        named.items = [item.reference]
        return named
    }

    /// Another row holding `values` for a unique index of legacy columns as the table's own
    /// columns compare them: a column's collation (`COLLATE NOCASE`, say) makes SQLite refuse a
    /// value that predicates, comparing bytes, tell apart from the one a row holds, so the search
    /// by predicate finds no holder. `nil` when a column is not a legacy one (Persist's columns
    /// compare as predicates do) or a value has no legacy form.
    private func holderByColumns(of item: Item, values: [Value], for index: DataStoreIndex) throws -> ItemID? {
        guard let table = schema.tables[item.itemType] else { return nil }
        var conditions: [String] = []
        var bindings: [SQLBinding] = []
        for (name, value) in zip(index.attributes, values) {
            guard let position = table.columnIndex[name], case .legacy = table.columns[position].storage,
                  let binding = ValueCodec.legacyBinding(value) else { return nil }
            bindings.append(binding)
            conditions.append("\(table.columns[position].quoted) = ?\(bindings.count)")
        }
        let decoder = RowDecoder(table: table, path: path)
        let sql = "SELECT \(table.selectList) FROM \(table.quoted) WHERE \(conditions.joined(separator: " AND "))"
        return try connection.withStatement(sql, bindings) { statement in
            while try statement.step(SQLiteReader.reading(item.itemType)) {
                let id = try decoder.identifier(statement)
                if id != item.id { return id }
            }
            return nil
        }
    }
}
