import Persist

/// Writes to guarded tables: adopted ones, and created ones with a unique index, a constraint, a
/// trigger or a rule besides the key. Each write runs in a savepoint and reads its row back, so
/// that a refused or altered row leaves nothing behind and the block can go on.
extension PostgresWriter {
    /// Inserts (or saves) `item` into its guarded table. When the table needs a new or wider
    /// column for it, the column is added in a savepoint with the write, so that a refused write
    /// takes the column away too, and the writer's schema with it.
    ///
    /// When the row PostgreSQL returns does not have the columns of the writer's schema (another
    /// session altered the table since the schema was read), the write is undone, the schema is
    /// read again, and the item is written once more against it; a second change is an `io` error
    /// naming the item.
    func guardedWrite(_ item: Item, replacing: Bool) throws {
        if let table = schema.tables[item.itemType] { try refuseKeyless(table, items: [item.reference]) }
        if case .int = item.id, let table = schema.tables[item.itemType], !table.isCreated, table.rowKey.isSingleColumn,
           table.key.type.integerRange != nil {
            keyedByInteger.insert(item.itemType)
        }
        do {
            try guardedWriteOnce(item, replacing: replacing)
        } catch let error where Self.isStale(error) {
            try reloadSchema()
            do {
                try guardedWriteOnce(item, replacing: replacing)
            } catch let stale as StaleSchema {
                throw DataStoreError(
                    .io, "the columns of table \(String(reflecting: stale.table)) in PostgreSQL at \(location) changed "
                        + "while \(item.reference) was written, twice; nothing was written for it. Retry the block",
                    path: location, items: [item.reference])
            }
        }
    }

    /// Whether a guarded write failed because the table is not what the writer's schema says: its
    /// returned row has other columns, or PostgreSQL refused a statement prepared for the old ones
    /// (`cached plan must not change result type`), which the connection then prepares anew.
    private static func isStale(_ error: any Error) -> Bool {
        if error is StaleSchema { return true }
        guard let error = error as? DataStoreError else { return false }
        return isStaleSchemaError(error) && !PostgresSession.isConnectionLoss(error)
    }

    private func guardedWriteOnce(_ item: Item, replacing: Bool) throws {
        if let table = schema.tables[item.itemType], let key = table.keyParameter(item.id),
           keepsAttributes(of: item, in: table) {
            return try guardedUpsert(item, table, key, replacing: replacing)
        }
        let operation = replacing ? "Saving \(item.reference)" : "Inserting \(item.reference)"
        try inSchemaSavepoint("persist_columns", operation: operation) {
            let (table, key) = try resolve(item)
            try guardedUpsert(item, table, key, replacing: replacing)
        }
    }

    /// Runs `body` in the savepoint `name`. When it throws (anything but a lost connection),
    /// rolls back to the savepoint, puts the writer's schema back as it was (columns added since
    /// are gone), and rethrows.
    func inSchemaSavepoint<T>(_ name: String, operation: String, _ body: () throws -> T) throws -> T {
        let schemaBefore = schema
        let changesBefore = schemaChanges
        _ = try transaction.run([PGCommand("SAVEPOINT \(name)", prepared: true, operation: operation)])
        do {
            let result = try body()
            releaseSavepoint(name, operation: operation)
            return result
        } catch let error as DataStoreError where PostgresSession.isConnectionLoss(error) {
            throw error
        } catch {
            try rollBackSavepoint(name, operation: operation)
            schema = schemaBefore
            schemaChanges = changesBefore
            throw namingReferences(error, writing: nil)
        }
    }

    /// Releases the savepoint `name` with the next statements (nobody waits for it).
    private func releaseSavepoint(_ name: String, operation: String) {
        transaction.session.connection.deferCommands([
            PGCommand("RELEASE SAVEPOINT \(name)", prepared: true, operation: operation),
        ])
    }

    /// Undoes what ran since the savepoint `name` and releases it: the transaction goes on as if
    /// nothing had been tried.
    private func rollBackSavepoint(_ name: String, operation: String) throws {
        transaction.failure = nil
        _ = try transaction.run([
            PGCommand("ROLLBACK TO SAVEPOINT \(name)", prepared: true, operation: operation),
            PGCommand("RELEASE SAVEPOINT \(name)", prepared: true, operation: operation),
        ])
    }

    /// Inserts (or replaces) the item with the columns it has, in a savepoint, and reads the row
    /// back: a value the table stored differently is refused with `typeMismatch` and undone.
    func guardedUpsert(_ item: Item, _ table: TableSchema, _ key: PGValue, replacing: Bool) throws {
        let dateOID = schema.dateTypeOID ?? 0
        var given: [ColumnSchema] = []
        var parameters = [key]
        for column in table.columns {
            guard let value = item.attributes[column.attribute] else { continue }
            guard let parameter = column.type.encode(value, persistDateOID: dateOID) else {
                throw mismatch(item, column.attribute, value, column, table)
            }
            given.append(column)
            parameters.append(parameter)
        }
        let operation = replacing ? "Saving \(item.reference)" : "Inserting \(item.reference)"
        let (statements, setsColumns) = upsertStatements(item, table, given, replacing: replacing)
        let commands = statements.map { PGCommand($0, parameters, prepared: true, operation: operation) }
        do {
            try checkedUpsert(item, table, given, commands, key: key, keyTakenIsFine: replacing && !setsColumns,
                              replacing: replacing)
        } catch let error as DataStoreError where error.engineCode == PostgresSQLState.uniqueViolation.engineCode {
            if table.avoidsConflictClause, violatesKey(of: table) {
                // Another session inserted the key after this write found it free, and committed.
                throw replacing ? concurrentInsert(item, table, error) : alreadyExists(item)
            }
            // The key conflicts are handled by ON CONFLICT or the check before the insert: this is
            // another unique index.
            throw try namingUniqueViolation(error, item)
        }
    }

    /// Runs a guarded insert or save in a savepoint and checks the row PostgreSQL stored: the row
    /// of the first of `commands` that returned one.
    ///
    /// No row comes back when the key is taken and the statement does nothing then (an insert, or
    /// a save with no column to set, `keyTakenIsFine`), or when a trigger or rule of the table
    /// skipped the row; a lookup of the key tells them apart.
    private func checkedUpsert(_ item: Item, _ table: TableSchema, _ given: [ColumnSchema], _ commands: [PGCommand],
                               key: PGValue, keyTakenIsFine: Bool, replacing: Bool) throws {
        let operation = commands.first?.operation ?? "Writing \(item.reference)"
        _ = try inSavepoint(item.reference, commands) { results in
            guard let result = results.first(where: { $0.rowCount > 0 }) else {
                let lookup = PGCommand(table.selectByKey, [key], prepared: true, operation: operation)
                if !replacing || keyTakenIsFine, try transaction.run([lookup])[0].rowCount > 0 {
                    if replacing { return }
                    throw alreadyExists(item)
                }
                throw DataStoreError(
                    .invalidArgument,
                    "PostgreSQL did not store \(item.reference) in table \(table.qualified) at \(location): a trigger or "
                        + "rule of the table skipped the row; nothing was written",
                    path: location, items: [item.reference])
            }
            let stored = try RowDecoder(table: table, result: result, location: location).item(0)
            if stored.id != item.id {
                throw altered(item, table, "its identifier would be stored as \(stored.id)")
            }
            for column in given {
                let expected = item.attributes[column.attribute].map(column.type.stored)
                let actual = stored.attributes[column.attribute]
                // A value where the item gave none is a default's or a trigger's: the table's own.
                guard let expected, expected != actual else { continue }
                // A type that keeps what it is given (the checks before sending saw to that) changed
                // nothing: a trigger or rule did, or the column is an identity that keeps its own.
                let cause: String
                if column.isIdentityAlways {
                    cause = "the identity column \(column.quoted), GENERATED ALWAYS, keeps its own value, and"
                } else if column.type == .timestamp || column.type == .timestamptz {
                    // A timestamp(p) with p below 6 rounds further than the microsecond sent.
                    cause = "the column \(column.quoted), of type \(Self.describe(column.type)) (rounding to its precision), "
                        + "or a trigger or rule of the table,"
                } else if column.type.keepsGivenValues {
                    cause = "a trigger or rule of the table"
                } else {
                    cause = "the column \(column.quoted), of type \(Self.describe(column.type)),"
                }
                throw altered(item, table, "\(cause) would turn \(Self.brief(expected)) into "
                    + "\(actual.map(Self.brief) ?? "null") in the column \(column.quoted)")
            }
        }
    }

    private func altered(_ item: Item, _ table: TableSchema, _ detail: String) -> DataStoreError {
        DataStoreError(
            .typeMismatch,
            "PostgreSQL would not store \(item.reference) as given in table \(table.qualified) at \(location): "
                + "\(detail); nothing was written. Give the value in the form the column keeps, leave out a value "
                + "the table sets itself, or store it under another attribute name",
            path: location, items: [item.reference])
    }

    /// Runs `command` in a savepoint and checks its result with `verify`; a failure of either
    /// (anything but a lost connection, a ``StaleSchema`` included) rolls the savepoint back, so
    /// the transaction goes on as if nothing had been tried.
    func inSavepoint(_ reference: ItemReference?, _ command: PGCommand,
                     verify: (PGResult) throws -> Void) throws -> PGResult {
        try inSavepoint(reference, [command]) { try verify($0[0]) }[0]
    }

    /// Runs `commands` in one savepoint and checks their results with `verify`, as
    /// the form with one command does.
    func inSavepoint(_ reference: ItemReference?, _ commands: [PGCommand],
                     verify: ([PGResult]) throws -> Void) throws -> [PGResult] {
        let operation = commands.first?.operation ?? "Writing"
        let savepoint = PGCommand("SAVEPOINT persist_write", prepared: true, operation: operation)
        do {
            let results = Array(try transaction.run([savepoint] + commands).dropFirst())
            try verify(results)
            releaseSavepoint("persist_write", operation: operation)
            return results
        } catch {
            if let lost = error as? DataStoreError, PostgresSession.isConnectionLoss(lost) { throw lost }
            try rollBackSavepoint("persist_write", operation: operation)
            let error = namingReferences(error, writing: reference)
            guard var named = error as? DataStoreError, named.items.isEmpty, let reference else { throw error }
            named.items = [reference]
            throw named
        }
    }
}
