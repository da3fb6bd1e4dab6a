import CSQLite
import Foundation
import PersistSQLite

/// Records the SQL of every statement the store's writer connection starts while installed, with
/// `sqlite3_trace_v2`, so that tests can count the statements a write block runs.
final class StatementTrace {
    private(set) var statements: [String] = []

    /// Runs `body` with tracing on the store's writer connection and returns its value.
    static func record<T>(on store: SQLiteDataStore, _ body: () throws -> T) throws -> (T, [String]) {
        let trace = StatementTrace()
        let context = Unmanaged.passRetained(trace)
        defer { context.release() }
        try store.withRawHandle { db in
            _ = sqlite3_trace_v2(db, UInt32(SQLITE_TRACE_STMT), { _, context, _, sql in
                guard let context, let sql else { return 0 }
                let text = String(cString: sql.assumingMemoryBound(to: CChar.self))
                Unmanaged<StatementTrace>.fromOpaque(context).takeUnretainedValue().statements.append(text)
                return 0
            }, context.toOpaque())
        }
        let value: T
        do {
            value = try body()
        } catch {
            try? store.withRawHandle { db in _ = sqlite3_trace_v2(db, 0, nil, nil) }
            throw error
        }
        try store.withRawHandle { db in _ = sqlite3_trace_v2(db, 0, nil, nil) }
        return (value, trace.statements)
    }
}
