import Foundation
import Logging
import Persist
import PersistConformance
import PersistPostgres
import Testing

/// Stores on the test server, each in a schema of its own.
enum TestStores {
    /// Options whose logger only prints warnings, so test output stays readable.
    static func quietOptions(_ configure: (inout PostgresDataStore.Options) -> Void = { _ in }) -> PostgresDataStore.Options {
        var logger = Logger(label: "persist.postgres.tests")
        logger.logLevel = .warning
        var options = PostgresDataStore.Options(readerConnections: 2, logger: logger)
        configure(&options)
        return options
    }

    /// A new schema name: `persist_test_` and 24 hexadecimal digits.
    static func newSchemaName() -> String {
        "persist_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(24)
    }

    /// The schema of a conformance test's directory, the same for every store made for it.
    static func schemaName(for directory: URL) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in directory.path.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return "persist_conformance_" + String(hash, radix: 16)
    }

    /// Drops a schema on a connection of its own.
    static func drop(_ schema: String) throws {
        try PostgresDataStore.dropSchema(schema, at: TestServer.url(), options: quietOptions())
    }
}

extension StoreFactory {
    /// PostgreSQL stores, each test in a schema named after its directory, dropped afterwards.
    static let postgres = StoreFactory(name: "PostgresDataStore", capabilities: [.persistent, .readsDoNotBlockWrites, .persistentIndexes, .compositeIdentifiers, .exactDecimals,
                                                                           .persistentRelations],
                                       make: { directory in
        PostgresDataStore(url: try TestServer.url(),
                          options: TestStores.quietOptions { $0.schema = TestStores.schemaName(for: directory) })
    }, cleanup: { directory in
        try TestStores.drop(TestStores.schemaName(for: directory))
    })
}

/// Runs `body` with a store, set up, in a new schema; with `sql`, plain SQL first runs in that
/// schema (its `search_path`), as a legacy program would have made the tables. Tears the store
/// down and drops the schema afterwards.
func withPostgresStore(
    creatingWith sql: String? = nil,
    options configure: (inout PostgresDataStore.Options) -> Void = { _ in },
    _ body: (PostgresDataStore, String) throws -> Void
) throws {
    let schema = TestStores.newSchemaName()
    defer { try? TestStores.drop(schema) }
    if let sql {
        let connection = try TestServer.connect()
        defer { connection.close() }
        try connection.executeScript("CREATE SCHEMA \(schema); SET search_path TO \(schema); \(sql)")
    }
    let store = PostgresDataStore(url: try TestServer.url(), options: TestStores.quietOptions {
        $0.schema = schema
        configure(&$0)
    })
    try store.setup()
    defer { try? store.tearDown() }
    try body(store, schema)
}
