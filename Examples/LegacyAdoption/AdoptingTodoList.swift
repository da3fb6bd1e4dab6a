import CSQLite
import Foundation
import Persist
import PersistSQLite

/// The "during": the same file opened as a `DataStore`, nothing converted. Listing and adding have
/// moved to the accessor API; marking done still runs the legacy SQL, through the store's escape
/// hatch on its own connection, serialized with the store's writes.
final class AdoptingTodoList {
    let store: SQLiteDataStore

    init(path: String) throws {
        store = SQLiteDataStore(path: path)
        try store.setup()
    }

    // Moved: a write block instead of a prepared INSERT.
    func add(_ title: String, due: String?) throws {
        try store.writeSync { accessor in
            // SQLite assigns the identifier, as for the legacy INSERT: the two never hand out the same one.
            let todo = try accessor.createItem(ofType: "todo", idGeneration: .nextInteger)
            todo["title"] = .string(title)
            todo["due"] = due.map(Value.string)
        }
    }

    // Not moved yet: the legacy statement, run on the store's own connection.
    func markDone(_ id: Int64) throws {
        try store.withRawHandle { db in
            guard sqlite3_exec(db, "UPDATE todo SET done = 1 WHERE id = \(id)", nil, nil, nil) == SQLITE_OK else {
                throw LegacyError(String(cString: sqlite3_errmsg(db)))
            }
        }
    }

    // Moved: a request instead of a SELECT.
    func openTitles() throws -> [String] {
        var request = DataStoreRequest(itemType: "todo")
        request.setFilter(whereAttribute: "done", equalsValue: 0)
        return try store.read { accessor in
            try accessor.items(forRequest: request).compactMap { $0["title"]?.stringValue }
        }
    }
}
