import Persist
import PersistSQL

/// Widening: a created column or key that meets a value its type cannot hold becomes `bytea` in
/// the mixed encoding.
///
/// The change runs in two steps, so that it holds no more than one batch of rows in memory and
/// never leaves a row without its value (which a `NOT NULL` column would refuse):
///
/// 1. `ALTER … TYPE bytea USING '\xff' || send(value)` turns every value into an intermediate
///    form, `ff` and the value's binary form (what the type's `send` function gives, the same
///    bytes a binary result holds). No mixed encoding starts with `ff`, so no two keys ever meet
///    on the way.
/// 2. Batches of rows, in key order, are read back, decoded from the intermediate form and
///    written in the mixed encoding.
extension SchemaEditor {
    /// How many rows one batch rewrites when a column or key widens.
    private static let rewriteBatch = 1_000

    /// The first byte of the intermediate form; no mixed encoding starts with it.
    private static let intermediateTag: UInt8 = 0xFF

    /// Makes a created column hold any kind.
    func widen(columnAt index: Int, of table: TableSchema, in schema: inout StoreSchema) throws -> TableSchema {
        let column = table.columns[index]
        try dropForeignKeys(touching: column.name, of: table, in: &schema)
        let send = try sendFunction(ofType: column.typeOID, column.quoted, table)
        _ = try transaction.run([
            PGCommand("ALTER TABLE \(table.qualified) ALTER COLUMN \(column.quoted) TYPE bytea "
                        + "USING '\\xff'::bytea || \(send)(\(column.quoted))", operation: Self.operation),
            PGCommand("UPDATE \(schema.qualified(StoreSchema.columnsTable)) SET kind = $1 WHERE table_name = $2 AND "
                      + "column_name = $3", [.text(CreatedKind.mixed.rawValue), .text(table.name), .text(column.name)],
                      operation: Self.operation),
        ])
        retireStatements()
        let key = table.key.quoted
        // Batches follow the key in an order where no two keys tie: a text key's bytes.
        let ordered: String
        switch table.key.type {
        case .text, .character: ordered = key + " COLLATE \"C\""
        default: ordered = key
        }
        let select = "SELECT \(key), \(column.quoted) FROM \(table.qualified) WHERE \(column.quoted) IS NOT NULL"
        let update = "UPDATE \(table.qualified) SET \(column.quoted) = $2 WHERE \(key) = $1"
        var after: PGValue?
        while true {
            let result = try after.map {
                try run(select + " AND \(ordered) > $1 ORDER BY \(ordered) LIMIT \(Self.rewriteBatch)", [$0])
            } ?? run(select + " ORDER BY \(ordered) LIMIT \(Self.rewriteBatch)")
            guard result.rowCount > 0 else { break }
            var commands: [PGCommand] = []
            commands.reserveCapacity(result.rowCount)
            for row in 0..<result.rowCount {
                let keyBytes = try result.withValue(row, 0) { [UInt8]($0) } ?? []
                let keyValue = PGValue.raw(type: table.key.typeOID, bytes: keyBytes)
                after = keyValue
                let value: Value?
                do {
                    value = try result.withValue(row, 1) { bytes in
                        try Self.fromIntermediate(bytes) { try column.type.decode($0) }
                    } ?? nil
                } catch let failure as DecodingFailure {
                    throw failure.error(at: "the column \(column.quoted) of table \(table.qualified)", path: location)
                }
                let encoded: PGValue = value.map { .bytea(MixedValueCoding.encode($0)) } ?? .null
                commands.append(PGCommand(update, [keyValue, encoded], prepared: true, operation: Self.operation))
            }
            _ = try transaction.run(commands)
        }
        var columns = table.columns
        columns[index] = ColumnSchema(attribute: column.attribute, name: column.name, type: .mixed,
                                      typeOID: PGType.bytea, isCreated: true, hasDefault: column.hasDefault)
        let widened = table.replacing(columns: columns, schema: schema.name)
        schema.tables[table.itemType] = widened
        return widened
    }

    /// Drops the foreign keys of declared relations through `column` of `table` (referring or
    /// referred), which a column of another type could not keep: Persist enforces those relations
    /// until the block ends, when they become foreign keys again where the types match.
    private func dropForeignKeys(touching column: String, of table: TableSchema, in schema: inout StoreSchema) throws {
        for (offset, stored) in schema.relations.enumerated() where stored.isDeclared {
            guard let key = stored.foreignKey,
                  (key.table == table.name && key.columns.contains(column))
                    || (key.referredTable == table.name && key.referredColumns.contains(column)) else { continue }
            _ = try run("ALTER TABLE \(schema.qualified(key.table)) DROP CONSTRAINT \(SQLName.quoted(key.name))")
            schema.relations[offset].foreignKey = nil
        }
    }

    /// Makes a table's key (of integers, text or bytea) hold identifiers of every kind.
    ///
    /// Keys still in the intermediate form sort after every mixed encoding (`bytea` compares
    /// bytes), so each batch takes the first keys from `ff` on, and the rewritten ones leave that
    /// range.
    func widenKey(of table: TableSchema, in schema: inout StoreSchema) throws -> TableSchema {
        let key = table.key
        try dropForeignKeys(touching: key.name, of: table, in: &schema)
        let send = try sendFunction(ofType: key.typeOID, key.quoted, table)
        _ = try transaction.run([
            PGCommand("ALTER TABLE \(table.qualified) ALTER COLUMN \(key.quoted) TYPE bytea "
                        + "USING '\\xff'::bytea || \(send)(\(key.quoted))", operation: Self.operation),
            PGCommand("UPDATE \(schema.qualified(StoreSchema.tablesTable)) SET key_kind = $1 WHERE table_name = $2",
                      [.text(KeyKind.mixed.rawValue), .text(table.name)], operation: Self.operation),
        ])
        retireStatements()
        let select = "SELECT \(key.quoted) FROM \(table.qualified) WHERE \(key.quoted) >= '\\xff'::bytea "
            + "ORDER BY \(key.quoted) LIMIT \(Self.rewriteBatch)"
        let update = "UPDATE \(table.qualified) SET \(key.quoted) = $2 WHERE \(key.quoted) = $1"
        while true {
            let result = try run(select)
            guard result.rowCount > 0 else { break }
            var commands: [PGCommand] = []
            commands.reserveCapacity(result.rowCount)
            for row in 0..<result.rowCount {
                let intermediate = try result.withValue(row, 0) { [UInt8]($0) } ?? []
                let id: ItemID
                do {
                    id = try intermediate.withUnsafeBytes { bytes in
                        try Self.fromIntermediate(bytes) { try key.type.decodeID($0) }
                    }
                } catch let failure as DecodingFailure {
                    throw failure.error(at: "the key \(key.quoted) of table \(table.qualified)", path: location)
                }
                commands.append(PGCommand(update, [.bytea(intermediate), .bytea(MixedValueCoding.encode(id.value))],
                                          prepared: true, operation: Self.operation))
            }
            _ = try transaction.run(commands)
        }
        let widenedKey = ColumnSchema(attribute: key.attribute, name: key.name, type: .mixed, typeOID: PGType.bytea,
                                      isCreated: true)
        let widened = table.replacing(key: widenedKey, keyKind: .mixed, schema: schema.name)
        schema.tables[table.itemType] = widened
        return widened
    }

    /// The schema-qualified `send` function of the type `typeOID`: it gives a value's binary form.
    private func sendFunction(ofType typeOID: UInt32, _ column: String, _ table: TableSchema) throws -> String {
        let result = try run("""
            SELECT n.nspname::text, p.proname::text FROM pg_catalog.pg_type t \
            JOIN pg_catalog.pg_proc p ON p.oid = t.typsend JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace \
            WHERE t.oid = $1::int8::oid
            """, [.int8(Int64(typeOID))])
        guard result.rowCount == 1, let namespace = try result.text(0, 0), let name = try result.text(0, 1) else {
            throw DataStoreError(
                .io, "the type of the column \(column) of table \(table.qualified) in PostgreSQL at \(location) has no "
                    + "binary send function, so the column cannot fall back to the tagged encoding", path: location)
        }
        return SQLName.qualified(namespace, name)
    }

    /// Decodes a value in the intermediate form with `decode`, which reads the value's binary form.
    private static func fromIntermediate<T>(
        _ bytes: UnsafeRawBufferPointer, _ decode: (UnsafeRawBufferPointer) throws -> T
    ) throws -> T {
        guard bytes.first == intermediateTag else {
            throw DecodingFailure("holds bytes that are not in the intermediate form of a widening column")
        }
        return try decode(UnsafeRawBufferPointer(rebasing: bytes.dropFirst()))
    }
}
