import Foundation
import Persist
@testable import PersistPostgres
import Testing

@Suite("PostgreSQL write blocks notify their schema's channel only when they wrote")
struct WriteNotificationTests {
    @Test("a block that only reads, or rolls back, sends nothing; a block that writes notifies once")
    func notifiesOnlyWrites() throws {
        let schema = TestStores.newSchemaName()
        defer { try? TestStores.drop(schema) }
        let store = PostgresDataStore(url: try TestServer.url(), options: TestStores.quietOptions { $0.schema = schema })
        try store.setup()
        defer { try? store.tearDown() }
        try store.writeSync { try $0.insert(Item(itemType: "Note", id: "first")) }
        let channel = PostgresEngine.changeChannel(forSchema: schema)
        let listener = try TestServer.connect()
        defer { listener.close() }
        try listener.listen(channel)

        try store.writeSync { accessor in
            _ = try accessor.countItems(forRequest: DataStoreRequest(itemType: "Note"))
            _ = try accessor.item(ofType: "Note", id: "first")
        }
        try store.writeSync { accessor -> TransactionStatus in
            try accessor.insert(Item(itemType: "Note", id: "rolled back"))
            return .rollback
        }
        #expect(try listener.waitForNotifications(timeout: .milliseconds(300)).isEmpty)

        try store.writeSync { try $0.insert(Item(itemType: "Note", id: "second")) }
        var received: [PGNotification] = []
        let deadline = Date().addingTimeInterval(10)
        while received.isEmpty && Date() < deadline {
            received += try listener.waitForNotifications(timeout: .seconds(5))
        }
        received += try listener.waitForNotifications(timeout: .milliseconds(200))
        #expect(received.map(\.channel) == [channel])
    }
}
