internal import CLibPQ
import Persist

/// `COPY … FROM STDIN (FORMAT binary)`: the fast way to load many rows.
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
        try checkStatementText(sql)
        let handle = try connection
        let start = try check(PQexec(handle, sql), operation: "Starting a COPY", allowingCopyIn: true)
        guard start.status == PGRES_COPY_IN else {
            throw DataStoreError(.misuse, "copyIn needs a COPY … FROM STDIN statement; \"\(start.commandTag)\" is not one.",
                                 path: url.location)
        }
        var encoder = PGCopyEncoder()
        do {
            for row in rows {
                try encoder.appendRow(row)
                if encoder.bytes.count >= Self.copyChunkSize { try send(encoder.takeBytes(), to: handle) }
            }
            encoder.appendTrailer()
            try send(encoder.takeBytes(), to: handle)
        } catch {
            PQputCopyEnd(handle, "the client stopped the COPY: \(error)")
            discardResults(handle)
            throw error
        }
        guard PQputCopyEnd(handle, nil) == 1 else { throw connectionFailure("Ending a COPY") }
        return try finishCopy(handle)
    }

    private func send(_ bytes: [UInt8], to handle: OpaquePointer) throws {
        let sent = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { PQputCopyData(handle, $0.baseAddress, Int32(buffer.count)) }
        }
        guard sent == 1 else { throw connectionFailure("Sending COPY data") }
    }

    /// Reads the COPY's results to the end; the stored row count, or the first error.
    private func finishCopy(_ handle: OpaquePointer) throws -> Int {
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
