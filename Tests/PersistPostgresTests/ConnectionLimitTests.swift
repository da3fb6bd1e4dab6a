import Foundation
import Persist
import PersistConformance
import PersistPostgres
import Testing

/// A server with no connection slot left for the store (`max_connections`, or the role's
/// `CONNECTION LIMIT`): `setup()` fails clearly, a read that needs one more connection fails
/// clearly, and the store goes on once slots are free again.
@Suite("PostgresDataStore when the server has no connection slot left")
struct ConnectionLimitTests {
    /// Runs `body` with a role of the test's own limited to `limit` sessions, owning a new schema.
    /// The role's limit stands in for `max_connections`: the server refuses a session past it with
    /// the same SQLSTATE (53300), without taking slots other tests need.
    private func withLimitedRole(_ limit: Int, _ body: (PostgresURL, String, PGConnection) throws -> Void) throws {
        let schema = TestStores.newSchemaName()
        let role = "persist_limited_" + schema.suffix(24)
        let admin = try TestServer.connect()
        defer { admin.close() }
        try admin.executeScript("CREATE ROLE \(role) LOGIN CONNECTION LIMIT \(limit); CREATE SCHEMA \(schema) AUTHORIZATION \(role)")
        defer { _ = try? admin.executeScript("DROP SCHEMA IF EXISTS \(schema) CASCADE; DROP ROLE IF EXISTS \(role)") }
        try body(try TestServer.url(user: role), schema, admin)
    }

    @Test("setup without a free slot is io saying so; setup succeeds once one is free")
    func setupWithoutSlot() throws {
        try withLimitedRole(0) { url, schema, admin in
            let store = PostgresDataStore(url: url, options: TestStores.quietOptions { $0.schema = schema })
            let error = expectError(.io) { try store.setup() }
            #expect(error?.message.contains("too many connections") == true, "\(String(describing: error))")
            // A condition that passes by itself: live queries meeting it run again later.
            #expect(error.map(store.scheduler.engine.isTransient) == true)
            #expect(!store.scheduler.engine.isTransient(DataStoreError(.invalidArgument, "an empty type name")))
            #expect(error?.path == url.location)
            try admin.executeScript("ALTER ROLE \(url.user ?? "") CONNECTION LIMIT 2")
            try store.setup()
            try seed(store, [Item(itemType: "Note", id: 1)])
            try store.tearDown()
        }
    }

    @Test("a read that needs one connection more than the server allows is io; the store goes on")
    func readPastLimit() throws {
        // The writer and one reader fit; a second read at the same time needs a third session.
        try withLimitedRole(2) { url, schema, _ in
            let store = PostgresDataStore(url: url, options: TestStores.quietOptions {
                $0.schema = schema
                $0.readerConnections = 1
            })
            try store.setup()
            defer { try? store.tearDown() }
            try seed(store, [Item(itemType: "Note", id: 1)])
            let (before, error, after) = try store.read { outer in
                let before = try outer.items(forRequest: DataStoreRequest(itemType: "Note")).count
                let error = expectError(.io) { try allItems(store, "Note") }
                return (before, error, try outer.items(forRequest: DataStoreRequest(itemType: "Note")).count)
            }
            #expect(before == 1 && after == 1)
            #expect(error?.message.contains("too many connections") == true, "\(String(describing: error))")
            try seed(store, [Item(itemType: "Note", id: 2)])
            #expect(try allItems(store, "Note").map(\.id) == [1, 2])
        }
    }
}
