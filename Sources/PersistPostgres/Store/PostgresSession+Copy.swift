import Persist

/// The COPY a bulk load streams into: rows are encoded into a buffer that goes to the server
/// each time it fills, and the COPY stays open between calls, so the server stores rows while
/// the client reads and encodes the next ones. It ends when the load goes to another table,
/// before any other statement runs on the session (``PostgresSession/run(_:synchronize:)``),
/// or when it has sent ``PostgresSession/restartBytes``, so that one statement never grows
/// without bound.
final class CopyStream {
    /// The table the COPY fills (compared by identity: a changed schema gives a new one).
    let table: TableSchema
    var encoder = PGCopyEncoder()
    /// The bytes sent so far.
    var sent = 0

    init(table: TableSchema) {
        self.table = table
    }
}

extension PostgresSession {
    /// After how many bytes a COPY is ended and the next one begun.
    static let restartBytes = 32 * 1024 * 1024

    /// The open COPY into `table`, begun (out of pipeline mode) when there is none, or when the
    /// open one fills another table (which is ended first).
    func copyStream(into table: TableSchema) throws -> CopyStream {
        if let stream = openCopy, stream.table === table { return stream }
        try endCopy()
        let names = (table.rowKey.columns.map(\.quoted) + table.columns.map(\.quoted)).joined(separator: ", ")
        let sql = "COPY \(table.qualified) (\(names)) FROM STDIN (FORMAT binary)"
        try owning {
            try connection.exitPipelineMode()
            do {
                try connection.beginCopyIn(sql)
            } catch {
                try? connection.enterPipelineMode()
                throw error
            }
        }
        let stream = CopyStream(table: table)
        openCopy = stream
        return stream
    }

    /// Sends the stream's buffer once it holds a chunk's worth, and begins a new COPY once the
    /// stream sent ``restartBytes``.
    func sendIfFull(_ stream: CopyStream) throws {
        guard stream.encoder.bytes.count >= PGConnection.copyChunkSize else { return }
        try owning {
            do {
                try connection.sendCopyData(stream.encoder.bytes)
            } catch {
                abortCopyWhileOwning(reason: "sending failed")
                throw error
            }
        }
        stream.sent += stream.encoder.bytes.count
        stream.encoder.clear()
        if stream.sent >= Self.restartBytes { try endCopy() }
    }

    /// Ends the open COPY, if any: sends the rest and the trailer, waits for the server to store
    /// the rows (or throws its error), and goes back to pipeline mode.
    func endCopy() throws {
        guard openCopy != nil else { return }
        try owning { try endCopyWhileOwning() }
    }

    /// Aborts the open COPY, if any: the server stores none of its rows, and the transaction fails.
    func abortCopy(reason: String) {
        guard openCopy != nil else { return }
        owning { abortCopyWhileOwning(reason: reason) }
    }

    /// ``endCopy()`` for a caller that owns the session.
    func endCopyWhileOwning() throws {
        guard let stream = openCopy else { return }
        openCopy = nil
        defer { try? connection.enterPipelineMode() }
        do {
            stream.encoder.appendTrailer()
            try connection.sendCopyData(stream.encoder.bytes)
        } catch {
            connection.abortCopyIn(reason: "sending failed")
            throw error
        }
        try connection.endCopyIn()
    }

    private func abortCopyWhileOwning(reason: String) {
        guard openCopy != nil else { return }
        openCopy = nil
        connection.abortCopyIn(reason: reason)
        try? connection.enterPipelineMode()
    }
}
