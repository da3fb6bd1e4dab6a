import Foundation
import Persist

/// `cd-read <sqlite|gdbm> <path> <directory>`: opens the store at `path` (relative to the working
/// directory it starts in), writes an item, changes the working directory to `directory`, then
/// reads that item, opens a live query on the type, and writes another item, printing each item
/// read and the live query's second result.
enum DirectoryMode {
    static let usage = "cd-read <sqlite|gdbm> <path> <directory>"

    static func run(_ arguments: [String]) throws {
        guard arguments.count == 3 else { Worker.usage(usage) }
        let store = try Worker.openStore(kind: arguments[0], path: arguments[1], durability: .normal, usage: usage)
        try store.writeSync { try $0.insert(Item(itemType: "Note", id: 1, attributes: ["v": "before"])) }
        guard FileManager.default.changeCurrentDirectoryPath(arguments[2]) else {
            throw DataStoreError(.notFound, "could not change the working directory to \(arguments[2])")
        }
        try report(store, 1)
        let observed = observe(store)
        // Long enough for several polls of the live query's change watch.
        Thread.sleep(forTimeInterval: 0.3)
        try store.writeSync { try $0.insert(Item(itemType: "Note", id: 2, attributes: ["v": "after"])) }
        try report(store, 2)
        Worker.report("observed \(try observed())")
        try store.tearDown()
    }

    private static func report(_ store: any DataStore, _ id: ItemID) throws {
        let item = try store.read { try $0.item(ofType: "Note", id: id) }
        Worker.report(item.map(String.init(describing:)) ?? "missing \(id)")
    }

    /// Opens a live query on every Note, waits for its first result, and returns a function that
    /// waits for its second and returns the identifiers in it (or throws the query's error).
    private static func observe(_ store: any DataStore) -> () throws -> [ItemID] {
        let first = DispatchSemaphore(value: 0)
        let second = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<[ItemID], any Error>?>(nil)
        let stream = store.observe(DataStoreRequest(itemType: "Note"))
        Task.detached {
            var iterator = stream.makeAsyncIterator()
            do {
                _ = try await iterator.next()
                first.signal()
                let items = try await iterator.next() ?? []
                outcome.withLock { $0 = .success(items.map(\.id)) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
                first.signal()
            }
            second.signal()
        }
        first.wait()
        return {
            second.wait()
            return try outcome.value?.get() ?? []
        }
    }
}
