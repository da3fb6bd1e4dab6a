// A wrapper written outside the package, through the public extension point only.
import Logging
import Persist

final class NothingEngine: DataStoreEngine {
    let location = "nothing"
    func open() throws {}
    func close() throws {}
    func read<T>(_ body: (any StoreReader) throws -> T) throws -> T { try body(NothingReader()) }
    func write<T>(_ body: (any StoreWriter) throws -> (value: T, commit: Bool)) throws -> T {
        try body(NothingReader()).value
    }
}

final class NothingReader: StoreWriter {
    func item(ofType itemType: String, id: ItemID) throws -> Item? { nil }
    func forEachItem(matching request: DataStoreRequest, _ body: (Item) throws -> Bool) throws {}
    func countItems(matching request: DataStoreRequest) throws -> Int { 0 }
    func itemTypes() throws -> [String] { [] }
    func insert(_ item: Item) throws {}
    func save(_ item: Item) throws {}
    func deleteItem(ofType itemType: String, id: ItemID) throws -> Bool { false }
    func deleteAllItems(ofType itemType: String) throws -> Int { 0 }
}

final class NothingStore: EngineBackedDataStore {
    let scheduler = WriteScheduler(engine: NothingEngine(), logger: Logger(label: "nothing"))

    func withEverythingQuiet<T>(_ body: () throws -> T) throws -> T {
        try scheduler.performExclusive(body)
    }
}

let store = NothingStore()
try store.setup()
try store.writeSync { accessor in try accessor.insert(Item(itemType: "Note")) }
_ = try store.withEverythingQuiet { 1 }
try store.tearDown()
