import Foundation
import Logging
import Persist
import PersistGDBM
import PersistSQLite
import PersistTestSupport
import Testing

/// The Persist side of the call table in `MigrationGuides/FromJustPersist.md`, written out as
/// code that runs: every call of the table's right-hand column (and of its "the same" rows) is in
/// this file, spelled as the table spells it, and does what the table says.
/// ``JustPersistTableCoverageTests`` fails when a call of the table is missing here.
@Suite("The JustPersist table's Persist calls")
struct JustPersistTableTests {
    struct Restaurant: DataStoreEntity {
        static let itemType = "Restaurant"
        var id: String
        var name: String
        var rating: Int
    }

    @Test("the stores open, close and hand out the block's value")
    func storesAndBlocks() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let stores: [any DataStore] = [
            SQLiteDataStore(path: directory.path("app.sqlite")), GDBMDataStore(path: directory.path("app.gdbm")),
            InMemoryDataStore(),
        ]
        for store in stores {
            try store.setup()
            let name: String? = try store.writeSync { accessor in
                let item = try accessor.createItem(ofType: "Restaurant")
                item["name"] = "Pizza Place"
                return item["name"]?.stringValue
            }
            let count = try store.read { accessor in try accessor.countItems(forRequest: DataStoreRequest(itemType: "Restaurant")) }
            #expect(name == "Pizza Place" && count == 1, "\(store.location)")
            try store.tearDown()
        }
    }

    @Test("writeSync rolls back on throw and on .rollback")
    func writeSyncRollsBack() throws {
        let store = InMemoryDataStore()
        try store.setup()
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try store.writeSync { accessor in
                _ = try accessor.createItem(ofType: "Restaurant")
                throw Refused()
            }
        }
        let status = try store.writeSync { accessor -> TransactionStatus in
            _ = try accessor.createItem(ofType: "Restaurant")
            return .rollback
        }
        #expect(status == .rollback)
        #expect(try store.read { accessor in try accessor.countItems(forRequest: DataStoreRequest(itemType: "Restaurant")) } == 0)
        try store.tearDown()
    }

    @Test("writeAsync reports to its completion, or without one to the store's logger; write awaits")
    func asynchronousWrites() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let lines = Locked<[String]>([])
        let logger = Logger(label: "just-persist") { _ in RecordingLogHandler(lines: lines) }
        let store = SQLiteDataStore(path: directory.path("app.sqlite"), options: SQLiteDataStore.Options(logger: logger))
        try store.setup()
        let item = Item(itemType: "Restaurant", id: "pizza")
        try store.writeSync { accessor in try accessor.insert(item) }
        let reported = Locked<DataStoreError.Code?>(nil)
        store.writeAsync({ accessor in try accessor.insert(item) }, completion: { result in
            if case .failure(let error as DataStoreError) = result { reported.withLock { $0 = error.code } }
        })
        try store.flush()
        #expect(reported.withLock { $0 } == .alreadyExists)
        func errors() -> [String] { lines.withLock { $0.filter { $0.hasPrefix("error") } } }
        #expect(errors().isEmpty, "the completion had the failure: \(errors())")
        store.writeAsync { accessor in try accessor.insert(item) }
        try store.flush()
        #expect(errors().count == 1, "log: \(lines.withLock { $0 })")
        let memory = InMemoryDataStore(logger: logger)
        try memory.setup()
        memory.writeAsync { accessor in try accessor.insert(item) }
        memory.writeAsync { accessor in try accessor.insert(item) }
        try memory.flush()
        #expect(errors().count == 2, "log: \(lines.withLock { $0 })")
        try memory.tearDown()
        let id = try await store.write { accessor in try accessor.createItem(ofType: "Restaurant").id }
        #expect(try await store.read { accessor in try accessor.item(ofType: "Restaurant", id: id) } != nil)
        try store.tearDown()
    }

    @Test("requests: names or entities, filters, sorts, predicates; reads and mutable reads")
    func requests() throws {
        let store = InMemoryDataStore()
        try store.setup()
        try store.writeSync { accessor in
            try accessor.insert(Restaurant(id: "a", name: "Pizza Place", rating: 4))
            try accessor.insert(Restaurant(id: "b", name: "Noodle Bar", rating: 2))
            try accessor.insert(Restaurant(id: "c", name: "Taco Stand", rating: 5))
        }
        var request = DataStoreRequest(itemType: "Restaurant")
        request.setFilter(whereAttribute: "name", equalsValue: "Pizza Place")
        request.setSort(byKey: "rating", ascending: false)
        var byEntity = DataStoreRequest(itemType: Restaurant.self)
        byEntity.filter = .attribute("rating") >= 3 && !(.attribute("open") == false)
        byEntity.setSort(byKey: "rating", ascending: false)
        let (found, first, count) = try store.read { accessor in
            (try accessor.items(forRequest: request), try accessor.firstItem(forRequest: byEntity),
             try accessor.countItems(forRequest: byEntity))
        }
        #expect(found.map(\.id) == ["a"] && first?.id == "c" && count == 2)
        try store.writeSync { accessor in
            for item in try accessor.mutableItems(forRequest: byEntity) { item["open"] = true }
            if let item = try accessor.firstMutableItem(forRequest: byEntity) { item["rating"] = 6 }
        }
        // The changes of the mutable items were saved when the block returned.
        let stored = try store.read { accessor in try accessor.items(forRequest: byEntity) }
        #expect(stored.map(\.id) == ["c", "a"] && stored.map { $0["open"] } == [true, true] && stored.first?["rating"] == 6)
        try store.tearDown()
    }

    @Test("create, insert (alreadyExists), mutableVersion, delete (whether it existed), deleteAllItems (how many)")
    func writes() throws {
        let store = InMemoryDataStore()
        try store.setup()
        var item = Item(itemType: "Restaurant", id: "pizza")
        item["name"] = "Pizza Place"
        let name = item["name"]
        #expect(name == "Pizza Place")
        let code = try store.writeSync { accessor -> DataStoreError.Code? in
            _ = try accessor.createItem(ofType: "Restaurant")
            try accessor.insert(item)
            do {
                try accessor.insert(item)
                return nil
            } catch let error as DataStoreError {
                return error.code
            }
        }
        #expect(code == .alreadyExists)
        let (changed, existed, existedAgain, deleted) = try store.writeSync { accessor in
            let mutable = try accessor.mutableVersion(ofItem: item)
            mutable?["rating"] = 4
            let changed = mutable?["rating"] == 4
            let existed = try accessor.delete(item: item)
            let existedAgain = try accessor.delete(item: item)
            let deleted = try accessor.deleteAllItems(ofType: "Restaurant")
            return (changed, existed, existedAgain, deleted)
        }
        #expect(changed && existed && !existedAgain && deleted == 1)
        try store.tearDown()
    }

    @Test("child stores merge, and Migration carries the data to another store")
    func childrenAndMigration() throws {
        let dataStore = InMemoryDataStore()
        try dataStore.setup()
        let child = try dataStore.makeChildDataStore()
        try child.setup()
        try child.writeSync { accessor in _ = try accessor.createItem(ofType: "Restaurant") }
        try dataStore.merge(child)
        let target = InMemoryDataStore()
        try target.setup()
        _ = try Migration(source: dataStore, target: target).run()
        #expect(try target.read { accessor in try accessor.countItems(forRequest: DataStoreRequest(itemType: "Restaurant")) } == 1)
        try child.tearDown()
        try target.tearDown()
        try dataStore.tearDown()
    }
}
