internal import CLibPQ
import Persist

/// Running statements: with parameters (`PQexecParams`), through the named-statement cache
/// (`PQprepare` / `PQexecPrepared`), or as a script of several statements (`PQexec`).
///
/// Parameters go in binary format; results come back in binary format, read with the decoders of
/// ``PGResult``. SQL never contains values: they are always parameters (`$1`, `$2`, …).
extension PGConnection {
    /// Runs one statement with `parameters` bound to `$1`, `$2`, … and returns its result in binary format.
    ///
    /// ```swift
    /// try connection.execute("INSERT INTO t (id, data) VALUES ($1, $2)", [.int8(1), .bytea([0, 1])])
    /// ```
    @discardableResult
    package func execute(_ sql: String, _ parameters: [PGValue] = [], operation: String = "Running a statement")
        throws -> PGResult {
        let encoded = try encode(sql, parameters)
        return try send(encoded, operation: operation) { handle, values, lengths, formats in
            PQexecParams(handle, sql, encoded.count, encoded.types, values, lengths, formats, 1)
        }
    }

    /// Runs one statement through a named prepared statement, preparing it on first use; the
    /// statement is kept for the same SQL and parameter types, up to the cache's capacity.
    ///
    /// ```swift
    /// for id in ids { try connection.executePrepared("SELECT data FROM t WHERE id = $1", [.int8(id)]) }
    /// ```
    @discardableResult
    package func executePrepared(_ sql: String, _ parameters: [PGValue] = [], operation: String = "Running a statement")
        throws -> PGResult {
        let encoded = try encode(sql, parameters)
        let key = PGStatementCache.Key(sql: sql, types: encoded.types)
        let name = try statements.name(for: key) ?? prepare(key, operation: operation)
        do {
            return try send(encoded, operation: operation) { handle, values, lengths, formats in
                PQexecPrepared(handle, name, encoded.count, values, lengths, formats, 1)
            }
        } catch let error as DataStoreError {
            // The server lost the statement (DISCARD ALL, a pooler) or its plan went stale after
            // a schema change: prepare it again next time.
            if let code = error.engineCode, [Self.missingStatement, Self.featureNotSupported].contains(code) {
                statements.remove(key)
            }
            throw error
        }
    }

    /// Runs `sql`, which may hold several statements separated by `;`, without parameters
    /// (`PQexec`); returns the last statement's result, in text format.
    ///
    /// ```swift
    /// try connection.executeScript("CREATE SCHEMA s; SET search_path TO s")
    /// ```
    @discardableResult
    package func executeScript(_ sql: String, operation: String = "Running a statement") throws -> PGResult {
        try checkStatementText(sql)
        return try check(PQexec(try connection, sql), operation: operation)
    }

    /// The number of named statements the cache holds on the server.
    package var preparedStatementCount: Int { statements.count }

    private static let missingStatement = PostgresSQLState("26000")?.engineCode ?? 0
    private static let featureNotSupported = PostgresSQLState("0A000")?.engineCode ?? 0

    private func prepare(_ key: PGStatementCache.Key, operation: String) throws -> String {
        let name = statements.nextName()
        let result = PQprepare(try connection, name, key.sql, Int32(clamping: key.types.count), key.types)
        try check(result, operation: operation)
        statements.insert(key, name: name)
        deallocateRetired()
        return name
    }

    /// Deallocates evicted statements, but only outside a transaction, where a failure cannot
    /// abort anything; inside one they wait for a later prepare.
    private func deallocateRetired() {
        guard transactionStatus == .idle, !statements.retired.isEmpty else { return }
        for name in statements.takeRetired() {
            if let handle = try? connection { PQclear(PQexec(handle, "DEALLOCATE \(name)")) }
        }
    }

    /// Refuses SQL with a NUL character: libpq would cut the statement there.
    func checkStatementText(_ sql: String) throws {
        if sql.containsNUL {
            throw DataStoreError(.invalidArgument, "An SQL statement for \(url.location) contains a NUL character, "
                + "which libpq cannot send; pass such text as a parameter.", path: url.location)
        }
    }

    /// The parameters in libpq's binary form, after checking the statement and their number.
    func encode(_ sql: String, _ parameters: [PGValue], checkingText: Bool = true) throws -> PGParameters {
        if checkingText { try checkStatementText(sql) }
        try checkParameterCount(parameters.count)
        return PGParameters(parameters)
    }

    /// Refuses a statement with more parameters than PostgreSQL takes.
    func checkParameterCount(_ count: Int) throws {
        if count > PGParameters.maximumCount {
            throw DataStoreError(.invalidArgument, "A statement for \(url.location) has \(count) parameters; "
                + "PostgreSQL takes at most \(PGParameters.maximumCount).", path: url.location)
        }
    }

    /// Runs `call` with the live handle and the parameters' arrays (values, lengths, formats),
    /// and checks the result it returns.
    private func send(
        _ encoded: PGParameters, operation: String,
        _ call: (OpaquePointer, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?)
            -> OpaquePointer?
    ) throws -> PGResult {
        let handle = try connection
        let result = encoded.withArrays { values, lengths, formats in call(handle, values, lengths, formats) }
        return try check(result, operation: operation)
    }

    /// `result` as a ``PGResult`` when it succeeded (rows, a command, or with `allowingCopyIn`
    /// the start of a COPY FROM STDIN); otherwise the error it reports, after clearing it.
    ///
    /// A COPY started where none was expected is ended first, so the session stays usable.
    @discardableResult
    func check(_ result: OpaquePointer?, operation: String, allowingCopyIn: Bool = false) throws -> PGResult {
        guard let result else { throw connectionFailure(operation) }
        let wrapped = PGResult(handle: result, location: url.location)
        switch wrapped.status {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return wrapped
        case PGRES_COPY_IN where allowingCopyIn:
            return wrapped
        case PGRES_COPY_IN, PGRES_COPY_OUT, PGRES_COPY_BOTH:
            let tag = wrapped.commandTag
            wrapped.clear()
            try abandonCopy()
            throw DataStoreError(.misuse, "\(operation) started a COPY on PostgreSQL at \(url.location), which was "
                + "ended unused\(tag.isEmpty ? "" : " (\(tag))"); load rows with copyIn instead.", path: url.location)
        default:
            let clientState: PostgresSQLState = isBroken ? .connectionFailure : .clientError
            let failure = wrapped.failure(clientState: clientState)
                ?? ServerFailure(sqlState: clientState, message: String(cString: PQresStatus(wrapped.status)))
            wrapped.clear()
            lastFailure = failure
            throw PostgresErrors.error(failure, url: url, operation: operation)
        }
    }
}
