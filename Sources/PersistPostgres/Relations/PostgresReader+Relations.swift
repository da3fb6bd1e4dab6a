import Persist
import PersistSQL

extension PostgresReader {
    /// Every relation of the schema, from the schema the block has (read with it, never per call):
    /// those declared through the store, in the order they were declared, then the foreign keys
    /// of adopted tables to the primary key of an item type (see ``StoredRelation``).
    func relations() throws -> [DataStoreRelation]? {
        schema.relations.map(\.relation)
    }

    /// The items of `itemType` with the identifiers `ids`, in one statement: `key = ANY($1)` for a
    /// table keyed by one column, `(a, b) IN (SELECT … FROM unnest($1, $2))` for a composite key.
    /// A keyless table's row locations are read one by one.
    func items(ofType itemType: String, ids: [ItemID]) throws -> [Item] {
        guard !ids.isEmpty else { return [] }
        return try withCurrentSchema(itemType) { table -> [Item] in
            guard let (sql, parameters) = Self.selectByKeys(table, ids) else {
                return try ids.compactMap { try item(ofType: itemType, id: $0) }
            }
            guard !parameters.isEmpty else { return [] }
            let result = try transaction.run([PGCommand(sql, parameters, prepared: true, operation: table.readOperation)])[0]
            let decoder = try RowDecoder(table: table, result: result, location: location)
            transaction.hasObservedResults = true
            let wanted = Set(ids)
            var items: [Item] = []
            items.reserveCapacity(decoder.rowCount)
            // A char(n) key compares ignoring trailing spaces: keep only the very identifiers.
            for row in 0..<decoder.rowCount where wanted.contains(try decoder.identifier(row)) {
                items.append(try decoder.item(row))
            }
            return items
        } ?? []
    }

    /// The statement selecting the rows of `ids` and its parameters (none when no row can have
    /// one of them); `nil` for a keyless table.
    static func selectByKeys(_ table: TableSchema, _ ids: [ItemID]) -> (String, [PGValue])? {
        let key = table.rowKey
        switch key.shape {
        case .rowLocation:
            return nil
        case .column:
            let texts = ids.compactMap { keyText($0, table.key) }
            guard !texts.isEmpty else { return ("", []) }
            let sql = "SELECT \(table.selectList) FROM \(table.qualified) WHERE \(table.key.quoted) = "
                + "ANY($1::text[]::\(TableKey.castType(table.key.type))[])"
            return (sql, [PGArrayEncoder.array(of: texts.map(PGValue.text), elementType: PGType.text)])
        case .composite:
            var columns = [[PGValue]](repeating: [], count: key.columns.count)
            for id in ids {
                guard case .composite(let components) = id, components.count == key.columns.count else { continue }
                let texts = zip(components, key.columns).compactMap { keyText($0, $1) }
                guard texts.count == components.count else { continue }
                for (offset, text) in texts.enumerated() { columns[offset].append(.text(text)) }
            }
            guard !columns[0].isEmpty else { return ("", []) }
            let names = key.columns.indices.map { "c\($0 + 1)" }
            let casts = zip(names, key.columns).map { "u.\($0)::\(TableKey.castType($1.type))" }
            let arrays = key.columns.indices.map { "$\($0 + 1)::text[]" }
            let sql = "SELECT \(table.selectList) FROM \(table.qualified) WHERE (\(key.columnList)) IN "
                + "(SELECT \(casts.joined(separator: ", ")) FROM unnest(\(arrays.joined(separator: ", "))) "
                + "AS u(\(names.joined(separator: ", "))))"
            return (sql, columns.map { PGArrayEncoder.array(of: $0, elementType: PGType.text) })
        }
    }

    /// The text form of `id` in the key column `column`, as a cast from text reads it; `nil` when
    /// the column cannot hold it.
    private static func keyText(_ id: ItemID, _ column: ColumnSchema) -> String? {
        guard column.type.encodeID(id) != nil else { return nil }
        if column.type == .mixed { return TableKey.hex(MixedValueCoding.encodeID(id)) }
        return TableKey.text(id, column.type)
    }
}

extension PostgresReader {
    /// The key columns of an adopted table, one per identifier component, which its foreign keys
    /// may name (a link table keyed by two foreign keys); `nil` for created and keyless tables.
    func keyAttributes(ofType itemType: String) throws -> [String]? {
        guard let table = schema.tables[itemType], !table.isCreated, !table.rowKey.isKeyless else { return nil }
        return table.rowKey.columns.map(\.name)
    }
}
