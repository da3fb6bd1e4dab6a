import CSQLite
import Foundation

/// The "before": a to-do list written straight against the sqlite3 C API, as legacy code is.
final class LegacyTodoList {
    let db: OpaquePointer

    init(path: String) throws {
        var handle: OpaquePointer?
        guard sqlite3_open(path, &handle) == SQLITE_OK, let handle else {
            sqlite3_close(handle)
            throw LegacyError("cannot open \(path)")
        }
        db = handle
        try execute("""
            CREATE TABLE IF NOT EXISTS todo (
                id INTEGER PRIMARY KEY,
                title TEXT NOT NULL,
                done INTEGER NOT NULL DEFAULT 0,
                due STRING
            )
            """)
    }

    deinit {
        sqlite3_close(db)
    }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw LegacyError(String(cString: sqlite3_errmsg(db)))
        }
    }

    // MARK: call sites

    func add(_ title: String, due: String?) throws {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, "INSERT INTO todo (title, due) VALUES (?, ?)", -1, &statement, nil) == SQLITE_OK else {
            throw LegacyError(String(cString: sqlite3_errmsg(db)))
        }
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_text(statement, 1, title, -1, persist_sqlite_transient())
        if let due { sqlite3_bind_text(statement, 2, due, -1, persist_sqlite_transient()) } else { sqlite3_bind_null(statement, 2) }
        guard sqlite3_step(statement) == SQLITE_DONE else { throw LegacyError(String(cString: sqlite3_errmsg(db))) }
    }

    func markDone(_ id: Int64) throws {
        try execute("UPDATE todo SET done = 1 WHERE id = \(id)")
    }

    func openTitles() throws -> [String] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, "SELECT title FROM todo WHERE done = 0 ORDER BY id", -1, &statement, nil) == SQLITE_OK else {
            throw LegacyError(String(cString: sqlite3_errmsg(db)))
        }
        defer { sqlite3_finalize(statement) }
        var titles: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            titles.append(String(cString: sqlite3_column_text(statement, 0)))
        }
        return titles
    }
}

struct LegacyError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
