import Dispatch
import Foundation
import Persist
import PersistConformance
import PersistGDBM
import PersistTestSupport
import Testing

@Suite("examineFile tells the layout of a file, and refuses what is no GDBM file without waiting")
struct ExamineFileTests {
    /// The outcome of an examination on another thread.
    final class Outcome: @unchecked Sendable {
        // @unchecked Sendable: `error` is only used while `lock` is held.
        private let lock = NSLock()
        private var error: DataStoreError?
        let done = DispatchSemaphore(value: 0)

        var code: DataStoreError.Code? { lock.withLock { error?.code } }

        func finish(_ error: DataStoreError?) {
            lock.withLock { self.error = error }
            done.signal()
        }
    }

    @Test("native, foreign, missing, empty, a directory, and a FIFO (which must not wait for a writer)")
    func kinds() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let native = directory.path("native.db")
        let store = GDBMDataStore(path: native, options: .init(logger: .quiet))
        try store.setup()
        try store.tearDown()
        #expect(try GDBMDataStore.examineFile(atPath: native, lockWait: .zero) == .native)
        let foreign = directory.path("foreign.db")
        try ForeignFile.create(foreign, pairs: [[1]: [2]])
        #expect(try GDBMDataStore.examineFile(atPath: foreign, lockWait: .zero) == .foreign)
        expectError(.notFound) { try GDBMDataStore.examineFile(atPath: directory.path("missing.db"), lockWait: .zero) }
        let empty = directory.path("empty.db")
        try Data().write(to: URL(fileURLWithPath: empty))
        expectError(.corrupt) { try GDBMDataStore.examineFile(atPath: empty, lockWait: .zero) }
        expectError(.invalidArgument) { try GDBMDataStore.examineFile(atPath: directory.url.path, lockWait: .zero) }

        let fifo = directory.path("fifo")
        #expect(mkfifo(fifo, 0o644) == 0)
        let outcome = Outcome()
        Thread.detachNewThread {
            do {
                _ = try GDBMDataStore.examineFile(atPath: fifo, lockWait: .zero)
                outcome.finish(nil)
            } catch {
                outcome.finish(error as? DataStoreError ?? DataStoreError(.io, "\(error)"))
            }
        }
        if outcome.done.wait(timeout: .now() + 5) == .timedOut {
            Issue.record("examineFile waited for a process to write the FIFO")
            // Let the examination go on: a writer that closes at once gives GDBM the end of the file.
            let writer = open(fifo, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
            outcome.done.wait()
        }
        #expect(outcome.code == .invalidArgument)
    }
}
