import CSQLite
import Synchronization

/// Counts the SQL statements run on the SQLite connections this process opens from
/// ``install()`` on — the store's own, which the bench cannot reach otherwise: an automatic
/// extension (`sqlite3_auto_extension`) sets a statement trace (`sqlite3_trace_v2`) on each new
/// connection. Statements of triggers and foreign-key actions are not counted, as they are no
/// statements of the caller's.
///
/// ```swift
/// try SQLiteStatementCounter.install()          // before the store opens its connections
/// let (sums, statements) = try SQLiteStatementCounter.recording { try readEverything() }
/// ```
enum SQLiteStatementCounter {
    private static let state = Mutex<State>(State())

    private struct State {
        var installed = false
        var recording = false
        var statements: [String] = []
    }

    /// Traces every connection opened after this call; calling it again does nothing.
    static func install() throws {
        let alreadyInstalled = state.withLock { state in
            defer { state.installed = true }
            return state.installed
        }
        guard !alreadyInstalled else { return }
        let entry: @convention(c) (OpaquePointer?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, UnsafeRawPointer?)
            -> Int32 = { connection, _, _ in
                sqlite3_trace_v2(connection, UInt32(SQLITE_TRACE_STMT), { _, _, _, text in
                    guard let text = text?.assumingMemoryBound(to: CChar.self) else { return 0 }
                    let sql = String(cString: text)
                    // A trigger's (or a foreign-key action's) statements arrive as `-- comment`.
                    guard !sql.hasPrefix("--") else { return 0 }
                    SQLiteStatementCounter.record(sql)
                    return 0
                }, nil)
                return SQLITE_OK
            }
        let status = sqlite3_auto_extension(unsafeBitCast(entry, to: (@convention(c) () -> Void).self))
        guard status == SQLITE_OK else { throw BenchmarkError("sqlite3_auto_extension failed with code \(status)") }
    }

    private static func record(_ sql: String) {
        state.withLock { state in
            if state.recording { state.statements.append(sql) }
        }
    }

    /// Runs `body` and returns its result and the statements the traced connections ran meanwhile.
    static func recording<T>(_ body: () throws -> T) throws -> (T, [String]) {
        state.withLock { state in
            state.recording = true
            state.statements = []
        }
        defer { state.withLock { $0.recording = false } }
        let result = try body()
        return (result, state.withLock { $0.statements })
    }
}
