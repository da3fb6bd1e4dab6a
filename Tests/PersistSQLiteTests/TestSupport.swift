import CSQLite
import Foundation
import Logging
import Persist
import PersistConformance
import PersistSQLite
import Testing
import PersistTestSupport

/// Runs `body` with a store, set up, on a new file in a directory of its own; tears the store
/// down and removes the directory afterwards. With `sql`, plain SQL first creates the database,
/// as a legacy program would.
func withFileStore(
    creatingWith sql: String? = nil,
    options: SQLiteDataStore.Options = quietOptions(),
    _ body: (SQLiteDataStore, String) throws -> Void
) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("store.sqlite")
    if let sql {
        let raw = try RawDatabase(path)
        try raw.exec(sql)
        raw.close()
    }
    let store = SQLiteDataStore(path: path, options: options)
    try store.setup()
    defer { try? store.tearDown() }
    try body(store, path)
}

/// Options whose logger only prints warnings, so test output stays readable.
func quietOptions(_ configure: (inout SQLiteDataStore.Options) -> Void = { _ in }) -> SQLiteDataStore.Options {
    var logger = Logger(label: "persist.sqlite.tests")
    logger.logLevel = .warning
    var options = SQLiteDataStore.Options(logger: logger)
    configure(&options)
    return options
}

extension StoreFactory {
    /// SQLite stores on a file in the test's directory.
    static let sqliteFile = StoreFactory(name: "SQLiteDataStore (file)",
                                         capabilities: [.persistent, .readsDoNotBlockWrites, .persistentIndexes, .persistentRelations,
                                                        .compositeIdentifiers, .exactDecimals]) { directory in
        SQLiteDataStore(path: directory.appendingPathComponent("store.sqlite").path, options: quietOptions())
    }

    /// SQLite stores on private scratch databases.
    static let sqliteInMemory = StoreFactory(name: "SQLiteDataStore.inMemory()",
                                             capabilities: [.readsDoNotBlockWrites, .compositeIdentifiers, .exactDecimals]) { _ in
        SQLiteDataStore.inMemory(options: quietOptions())
    }
}
