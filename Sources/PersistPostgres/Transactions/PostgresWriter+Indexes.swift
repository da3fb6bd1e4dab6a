import Foundation
import Persist
import PersistSQL

extension PostgresWriter: IndexDeclaringWriter {
    /// PostgreSQL's unique indexes refuse a violating statement; the writer runs writes to tables
    /// with one in a savepoint (they are guarded), so the refusal leaves the block as it was.
    var enforcesUniqueIndexes: Bool { true }

    /// Declares an index: recorded in `persist_indexes`, and created at once when its table and
    /// columns exist (otherwise as soon as they do).
    func ensureIndex(_ index: DataStoreIndex) throws -> Bool? {
        try declareIndex(index)
    }

    /// An index over a column no attribute can be (an adopted table's key, a generated column),
    /// which writes refuse too (`invalidArgument`), or over a `json` or `jsonb` column, which
    /// PostgreSQL cannot index as Persist compares (`unsupported`).
    func refusal(of index: DataStoreIndex) throws -> DataStoreError? {
        if let table = schema.tables[index.itemType] {
            for attribute in index.attributes {
                // A column of the key can be indexed (a relation through part of a composite key).
                if table.column(attribute) == nil, table.keyColumn(attribute) == nil,
                   let reason = table.reservedAttributes[attribute] {
                    // Writes refuse the attribute too: the index would never be created, yet be listed.
                    return DataStoreError(
                        .invalidArgument,
                        "cannot declare the \(index): \(String(reflecting: attribute)) cannot be an attribute of table "
                            + "\(table.qualified) of PostgreSQL at \(location): \(reason); nothing was declared. Index "
                            + "attributes the items hold",
                        path: location)
                }
                guard let column = table.column(attribute), column.type == .json || column.type == .jsonb else { continue }
                let why = column.type == .json
                    ? "json, which PostgreSQL cannot index"
                    : "jsonb, which PostgreSQL compares by its own rules, not Persist's ([1] and [1.0] are one value to it)"
                return DataStoreError(
                    .unsupported,
                    "the \(index) cannot be declared: the column \(column.quoted) of table \(table.qualified) at "
                        + "\(location) is \(why); declare the index on other attributes",
                    path: location)
            }
        }
        return nil
    }

    /// Records the declaration in `persist_indexes` and creates the index, in a savepoint, where
    /// its table and columns exist.
    func declare(_ index: DataStoreIndex) throws -> String {
        try editor.ensureIndexTable(&schema)
        let operation = "Declaring the \(index)"
        let catalog = schema.qualified(StoreSchema.indexesTable)
        let position = (try transaction.run([PGCommand("SELECT coalesce(max(position), 0)::int8 FROM \(catalog)",
                                                       prepared: true, operation: operation)])[0].int64(0, 0) ?? 0) + 1
        var number = position
        while schema.takenNames.contains("persist_index_\(number)") { number += 1 }
        let declared = IndexCatalog.Declared(name: "persist_index_\(number)", attributes: index.attributes, isUnique: index.isUnique)
        if let table = schema.tables[index.itemType],
           let create = IndexCatalog.createStatement(declared, on: table, schema: schema) {
            _ = try inSavepoint(nil, PGCommand(create, operation: operation)) { _ in }
        }
        let encoded = String(decoding: try JSONEncoder().encode(index.attributes), as: UTF8.self)
        _ = try transaction.run([PGCommand(
            "INSERT INTO \(catalog) (position, name, item_type, attributes, is_unique) VALUES ($1, $2, $3, $4, $5)",
            [.int8(position), .text(declared.name), .text(index.itemType), .text(encoded), .bool(index.isUnique)],
            prepared: true, operation: operation)])
        schema.takenNames.insert(declared.name)
        if index.isUnique, schema.tables[index.itemType] != nil { try reloadSchema() }
        return declared.name
    }

    func isSharedValues(_ error: DataStoreError) -> Bool {
        error.engineCode == PostgresSQLState.uniqueViolation.engineCode
    }

    /// Creates the declared indexes of `itemType` whose columns now all exist, and rebuilds unique
    /// ones whose columns were widened to the mixed encoding; returns the table as it is then.
    func materializeIndexes(ofType itemType: String) throws -> TableSchema? {
        let catalog = indexCatalog
        guard catalog.hasDeclarations, let table = schema.tables[itemType] else { return schema.tables[itemType] }
        let declared = try catalog.declared(ofType: itemType)
        guard !declared.isEmpty else { return table }
        let existing = Dictionary(try catalog.existing(on: table).map { ($0.name, $0.hasExpressions) },
                                  uniquingKeysWith: { a, _ in a })
        var commands: [PGCommand] = []
        var madeUnique = false
        for index in declared {
            guard let create = IndexCatalog.createStatement(index, on: table, schema: schema) else { continue }
            let operation = "Creating the index \(String(reflecting: index.name)) of type \(String(reflecting: itemType))"
            switch existing[index.name] {
            case nil:
                commands.append(PGCommand(create, operation: operation))
            case false? where IndexCatalog.needsExpressions(index, on: table):
                commands.append(PGCommand("DROP INDEX \(schema.qualified(index.name))", operation: operation))
                commands.append(PGCommand(create, operation: operation))
            default:
                continue
            }
            madeUnique = madeUnique || index.isUnique
            schemaChanges.append("created the index \(String(reflecting: index.name)) of table \(table.qualified)")
        }
        guard !commands.isEmpty else { return table }
        _ = try transaction.run(commands)
        if madeUnique { try reloadSchema() }
        return schema.tables[itemType]
    }

    /// Names the items of a unique violation PostgreSQL reported for `item`: the item, and the
    /// one holding its values for a unique index, found by Persist's comparisons (then with the
    /// message every store gives).
    func namingUniqueViolation(_ error: DataStoreError, _ item: Item) throws -> DataStoreError {
        var named = error
        named.code = .uniqueViolation
        named.items = [item.reference]
        named.message = "\(item.reference) would share the values of a unique index of its table in PostgreSQL at "
            + "\(location); nothing of the write was stored. Give the item other values, or remove the other item first"
        for index in try indexes(ofType: item.itemType) ?? [] where index.isUnique {
            guard let values = UniqueIndexes.values(of: item, for: index),
                  let holder = try UniqueIndexes.holder(of: values, for: index, in: self, excluding: [item.id])
            else { continue }
            let items = [item.reference, ItemReference(itemType: item.itemType, id: holder)]
            return UniqueIndexes.reported(UniqueIndexes.violation(index, items, values: values), by: error, at: location)
        }
        return named
    }
}
