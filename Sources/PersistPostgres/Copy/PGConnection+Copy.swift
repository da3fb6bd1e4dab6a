internal import CLibPQ
import Persist

/// `COPY … FROM STDIN (FORMAT binary)`: the fast way to load many rows.
///
/// A COPY is either sent whole with ``copyIn(_:rows:)``, or streamed: ``beginCopyIn(_:)``, any
/// number of ``sendCopyData(_:)`` calls while the caller goes on with other work (the server
/// stores rows as they arrive, and a full socket makes the sender wait), then ``endCopyIn()`` or
/// ``abortCopyIn(reason:)``. The connection runs nothing else in between, and is out of pipeline
/// mode meanwhile.
extension PGConnection {
    /// How many bytes are gathered before they are sent.
    static let copyChunkSize = 64 * 1024

    /// Runs `sql`, a `COPY table (columns) FROM STDIN (FORMAT binary)`, and sends `rows` in
    /// chunks; returns the number of rows the server stored.
    ///
    /// ```swift
    /// let count = try connection.copyIn("COPY t (id, name) FROM STDIN (FORMAT binary)",
    ///                                   rows: (1...1000).lazy.map { [.int8($0), .text("row \($0)")] })
    /// ```
    ///
    /// When a row cannot be encoded, or the server rejects the data, the COPY is aborted and
    /// stores nothing (inside a transaction, the transaction has failed).
    @discardableResult
    package func copyIn(_ sql: String, rows: some Sequence<[PGValue]>) throws -> Int {
        try beginCopyIn(sql)
        var encoder = PGCopyEncoder()
        do {
            for row in rows {
                try encoder.appendRow(row)
                if encoder.bytes.count >= Self.copyChunkSize { try sendCopyData(encoder.takeBytes()) }
            }
            encoder.appendTrailer()
            try sendCopyData(encoder.takeBytes())
        } catch {
            abortCopyIn(reason: "the client stopped the COPY: \(error)")
            throw error
        }
        return try endCopyIn()
    }

    /// Starts `sql`, a `COPY … FROM STDIN`; the connection must be out of pipeline mode.
    package func beginCopyIn(_ sql: String) throws {
        try checkStatementText(sql)
        let handle = try connection
        let start = try check(PQexec(handle, sql), operation: "Starting a COPY", allowingCopyIn: true)
        guard start.status == PGRES_COPY_IN else {
            throw DataStoreError(.misuse, "copyIn needs a COPY … FROM STDIN statement; \"\(start.commandTag)\" is not one.",
                                 path: url.location)
        }
    }

    /// Sends bytes of the COPY begun with ``beginCopyIn(_:)``, waiting while the socket is full.
    package func sendCopyData(_ bytes: [UInt8]) throws {
        guard !bytes.isEmpty else { return }
        let handle = try connection
        let sent = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { PQputCopyData(handle, $0.baseAddress, Int32(buffer.count)) }
        }
        guard sent == 1 else { throw connectionFailure("Sending COPY data") }
    }

    /// Ends the COPY begun with ``beginCopyIn(_:)`` (the data sent must end with the trailer)
    /// and waits for the server; the number of rows it stored, or its error.
    @discardableResult
    package func endCopyIn() throws -> Int {
        let handle = try connection
        guard PQputCopyEnd(handle, nil) == 1 else { throw connectionFailure("Ending a COPY") }
        var count = 0
        var failure: DataStoreError?
        while let result = PQgetResult(handle) {
            do {
                count = try check(result, operation: "Copying rows").affectedRows
            } catch let error as DataStoreError {
                failure = failure ?? error
            }
        }
        if let failure { throw failure }
        return count
    }

    /// Aborts the COPY begun with ``beginCopyIn(_:)``: the server stores none of its rows, and
    /// fails the transaction it ran in.
    package func abortCopyIn(reason: String) {
        guard let handle = try? connection else { return }
        PQputCopyEnd(handle, reason)
        discardResults(handle)
    }

    private func discardResults(_ handle: OpaquePointer) {
        while let result = PQgetResult(handle) { PQclear(result) }
    }

    /// Ends a COPY that a statement started unasked: aborts a COPY FROM STDIN, reads and drops
    /// what a COPY TO STDOUT sends, then reads the results to the end.
    func abandonCopy() throws {
        let handle = try connection
        PQputCopyEnd(handle, "Persist does not send COPY data here")
        var buffer: UnsafeMutablePointer<CChar>?
        while PQgetCopyData(handle, &buffer, 0) >= 0 {
            PQfreemem(buffer)
            buffer = nil
        }
        discardResults(handle)
    }
}
