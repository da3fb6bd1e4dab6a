internal import CLibPQ
import Persist

/// Pipeline mode (libpq 14 and later): several statements sent in one write, their results read
/// in order, so that a transaction's `BEGIN`, its first statement and the previous
/// transaction's `COMMIT` cost one round trip instead of three.
///
/// A call sends the statements deferred earlier, then its own, then a flush request (not a sync:
/// an open transaction stays open between calls), and reads every result up to its own. When a
/// statement fails, the server skips what follows until a synchronization point; the call then
/// synchronizes, so the connection accepts statements again, and throws the first failure.
///
/// ```swift
/// try connection.enterPipelineMode()
/// let results = try connection.runPipeline([
///     PGCommand("BEGIN", operation: "Starting a read"),
///     PGCommand("SELECT * FROM t WHERE id = $1", [.int8(7)], prepared: true, operation: "Reading t"),
/// ])
/// connection.deferCommands([PGCommand("COMMIT", operation: "Ending a read")])
/// ```
extension PGConnection {
    /// Whether the connection is in pipeline mode.
    package var isPipelining: Bool { pipeline.isActive }

    /// Whether statements were deferred and not sent yet, or sent and their results not read.
    package var hasPendingWork: Bool { !pipeline.unsent.isEmpty || !pipeline.expected.isEmpty }

    /// Whether deferred statements wait to be sent.
    package var hasUnsentCommands: Bool { !pipeline.unsent.isEmpty }

    /// Switches to pipeline mode; does nothing when already in it.
    package func enterPipelineMode() throws {
        guard !pipeline.isActive else { return }
        guard PQenterPipelineMode(try connection) == 1 else { throw connectionFailure("Entering pipeline mode") }
        pipeline.isActive = true
    }

    /// Sends and reads everything pending, then leaves pipeline mode, so that `execute` and
    /// `executeScript` (and code given the raw handle) work again.
    package func exitPipelineMode() throws {
        guard pipeline.isActive else { return }
        try flushDeferred()
        try drainPending()
        if pipeline.expected.isEmpty, PQexitPipelineMode(try connection) == 1 {
            pipeline.isActive = false
            return
        }
        throw connectionFailure("Leaving pipeline mode")
    }

    /// Queues statements whose results nobody waits for (ending a read transaction,
    /// deallocating a statement); they are sent with the next pipeline call or
    /// ``flushDeferred()``, and a failure among them is only logged.
    package func deferCommands(_ commands: [PGCommand]) {
        pipeline.unsent.append(contentsOf: commands)
    }

    /// Sends the deferred statements now, without waiting for their results.
    package func flushDeferred() throws {
        guard pipeline.isActive, !pipeline.unsent.isEmpty else { return }
        let handle = try connection
        try sendUnsent(handle)
        try flush(handle, operation: "Sending deferred statements")
    }

    /// Reads the results of statements sent without waiting for them (deferred statements not
    /// sent yet stay queued).
    package func drainPending() throws {
        guard pipeline.isActive, !pipeline.expected.isEmpty else { return }
        let handle = try connection
        if pipeline.expected.contains(where: { if case .sync = $0 { false } else { true } }) {
            try flush(handle, operation: "Reading deferred results")
        }
        let outcome = try collect(handle)
        if outcome.aborted { try synchronize(handle) }
    }

    /// Runs `commands`: sends what was deferred, then them, then a flush request (or with
    /// `synchronize`, a synchronization point, which ends a transaction that no `BEGIN` opened),
    /// and returns their results in order.
    ///
    /// - Throws: the first failure among `commands`, after synchronizing. When only a deferred
    ///   statement failed and made the server skip these, they are sent once more.
    package func runPipeline(_ commands: [PGCommand], synchronize endWithSync: Bool = false) throws -> [PGResult] {
        guard pipeline.isActive else {
            throw DataStoreError(.misuse, "A pipeline call was made on a connection to \(url.location) that is not "
                + "in pipeline mode.", path: url.location)
        }
        // Checked before any is sent: a refused command must not leave the ones before it queued,
        // to be answered in a later call.
        for command in commands {
            try checkParameterCount(command.parameters.count)
            if !command.prepared { try checkStatementText(command.sql) }
        }
        for attempt in 0..<2 {
            let handle = try connection
            try sendUnsent(handle)
            for command in commands { try send(command, handle, wanted: true) }
            if endWithSync {
                guard PQpipelineSync(handle) == 1 else { throw sendFailure(commands.first?.operation ?? "Running statements") }
                pipeline.expected.append(.sync)
            } else {
                try flush(handle, operation: commands.first?.operation ?? "Running statements")
            }
            let outcome = try collect(handle)
            if outcome.aborted { try synchronize(handle) }
            if let failure = outcome.failure { throw failure }
            if outcome.wanted.count == commands.count { return outcome.wanted }
            // Only a deferred statement failed, and the server skipped these: run them again.
            if attempt == 1 { break }
        }
        throw DataStoreError(.io, "\(commands.first?.operation ?? "Running statements") was skipped twice by "
            + "PostgreSQL at \(url.location) after earlier statements failed.", path: url.location)
    }

    /// Forgets every prepared statement after a schema change, to prepare each again on its next
    /// use; the old ones are deallocated with ``takeRetiredStatementDeallocations()``.
    package func retireAllStatements() {
        statements.retireAll()
    }

    /// The names of prepared statements evicted from the cache, as `DEALLOCATE` statements to
    /// defer; call it where no transaction is open (a failure inside one would abort it).
    package func takeRetiredStatementDeallocations() -> [PGCommand] {
        guard !statements.retired.isEmpty else { return [] }
        return statements.takeRetired().map { PGCommand("DEALLOCATE \($0)", operation: "Deallocating a prepared statement") }
    }

    // MARK: Sending

    private func sendUnsent(_ handle: OpaquePointer) throws {
        let unsent = pipeline.unsent
        pipeline.unsent.removeAll()
        for command in unsent { try send(command, handle, wanted: false) }
    }

    private func send(_ command: PGCommand, _ handle: OpaquePointer, wanted: Bool) throws {
        // Unprepared statements were checked by runPipeline (deferred ones are the store's own
        // COMMIT and DEALLOCATE); a prepared one is checked before it is first prepared.
        let encoded = try encode(command.sql, command.parameters, checkingText: false)
        let sent: Int32
        var statementKey: PGStatementCache.Key?
        if command.prepared {
            let key = PGStatementCache.Key(sql: command.sql, types: encoded.types)
            statementKey = key
            let name: String
            if let cached = statements.name(for: key) {
                name = cached
            } else {
                try checkStatementText(command.sql)
                name = statements.nextName()
                guard PQsendPrepare(handle, name, command.sql, Int32(clamping: encoded.types.count), encoded.types) == 1 else {
                    throw sendFailure(command.operation)
                }
                pipeline.expected.append(.preparation(key, operation: command.operation))
                statements.insert(key, name: name)
            }
            sent = encoded.withArrays { values, lengths, formats in
                PQsendQueryPrepared(handle, name, encoded.count, values, lengths, formats, 1)
            }
        } else {
            sent = encoded.withArrays { values, lengths, formats in
                PQsendQueryParams(handle, command.sql, encoded.count, encoded.types, values, lengths, formats, 1)
            }
        }
        guard sent == 1 else { throw sendFailure(command.operation) }
        pipeline.expected.append(.statement(operation: command.operation, key: statementKey, wanted: wanted))
    }

    private func flush(_ handle: OpaquePointer, operation: String) throws {
        guard PQsendFlushRequest(handle) == 1, PQflush(handle) == 0 else { throw sendFailure(operation) }
    }

    /// The error for a send that libpq refused: the connection broke (then nothing sent before
    /// will be answered), or libpq's own message.
    private func sendFailure(_ operation: String) -> DataStoreError {
        let failure = connectionFailure(operation)
        if isBroken { pipeline.expected.removeAll() }
        return failure
    }

    // MARK: Reading

    private struct Outcome {
        var wanted: [PGResult] = []
        var failure: DataStoreError?
        /// Whether the server is skipping statements until a synchronization point.
        var aborted = false
    }

    /// Reads every expected result.
    private func collect(_ handle: OpaquePointer) throws -> Outcome {
        var outcome = Outcome()
        var next = 0
        defer { pipeline.expected.removeFirst(min(next, pipeline.expected.count)) }
        while next < pipeline.expected.count {
            let entry = pipeline.expected[next]
            next += 1
            if case .sync = entry {
                guard let result = PQgetResult(handle) else { throw lost("Synchronizing a pipeline") }
                PQclear(result)
                outcome.aborted = false
                continue
            }
            guard let raw = PQgetResult(handle) else { throw lost(entry.operation) }
            while let extra = PQgetResult(handle) { PQclear(extra) }
            let status = PQresultStatus(raw)
            switch status {
            case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
                if case .statement(_, _, true) = entry {
                    outcome.wanted.append(PGResult(handle: raw, location: url.location))
                } else {
                    PQclear(raw)
                }
            case PGRES_PIPELINE_ABORTED:
                PQclear(raw)
                outcome.aborted = true
                // A skipped preparation made no statement: prepare it again on its next use.
                if case .preparation(let key, _) = entry { statements.forget(key) }
            default:
                let result = PGResult(handle: raw, location: url.location)
                outcome.aborted = true
                let state: PostgresSQLState = isBroken ? .connectionFailure : .clientError
                let failure = result.failure(clientState: state)
                    ?? ServerFailure(sqlState: state, message: String(cString: PQresStatus(status)))
                let error = PostgresErrors.error(failure, url: url, operation: entry.operation)
                forgetStatement(after: error, entry)
                switch entry {
                case .statement(_, _, true), .preparation:
                    if outcome.failure == nil {
                        outcome.failure = error
                        lastFailure = failure
                    }
                case .statement(_, _, false) where failure.endsSession && outcome.failure == nil:
                    // The server ended the session (terminated, shut down) and said why in the
                    // result of a deferred statement: that is the reason the caller's statements
                    // fail, not libpq's "no connection to the server" that follows.
                    outcome.failure = error
                    lastFailure = failure
                case .statement(let operation, _, false):
                    options.logger.debug("a deferred statement failed: \(operation): \(error)",
                                         metadata: ["server": .string(url.location)])
                case .sync:
                    break
                }
                if isBroken {
                    pipeline.expected.removeAll()
                    next = 0
                    throw error
                }
            }
        }
        return outcome
    }

    /// Forgets a named statement the server no longer has, or whose plan went stale.
    private func forgetStatement(after error: DataStoreError, _ entry: PGPipelineState.Expected) {
        switch entry {
        case .preparation(let key, _):
            statements.forget(key)
        case .statement(_, let key?, _) where error.engineCode == Self.missingStatementCode:
            statements.forget(key)
        case .statement(_, let key?, _) where error.engineCode == Self.staleStatementCode:
            // The plan went stale after a schema change: deallocate it, prepare it again next time.
            statements.remove(key)
        default:
            break
        }
    }

    private static let missingStatementCode = PostgresSQLState("26000")?.engineCode ?? 0
    private static let staleStatementCode = PostgresSQLState("0A000")?.engineCode ?? 0

    /// Sends a synchronization point and reads up to it: the server accepts statements again.
    private func synchronize(_ handle: OpaquePointer) throws {
        guard PQpipelineSync(handle) == 1 else { throw sendFailure("Synchronizing a pipeline") }
        pipeline.expected.append(.sync)
        let outcome = try collect(handle)
        if outcome.aborted { throw lost("Synchronizing a pipeline") }
    }

    /// The error for a result that never came: the connection was lost.
    private func lost(_ operation: String) -> DataStoreError {
        pipeline.expected.removeAll()
        pipeline.unsent.removeAll()
        let failure = ServerFailure(sqlState: .connectionFailure, message: "the server sent no result")
        if isBroken { return connectionFailure(operation) }
        return PostgresErrors.error(failure, url: url, operation: operation)
    }
}

extension PGPipelineState.Expected {
    var operation: String {
        switch self {
        case .statement(let operation, _, _), .preparation(_, let operation): operation
        case .sync: "Synchronizing a pipeline"
        }
    }
}
