import Foundation
import Persist

/// `cd-read <sqlite|gdbm> <path> <directory>`: opens the store at `path` (relative to the working
/// directory it starts in), writes an item, changes the working directory to `directory`, then
/// reads that item and writes and reads another, printing each item read.
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
        try store.writeSync { try $0.insert(Item(itemType: "Note", id: 2, attributes: ["v": "after"])) }
        try report(store, 2)
        try store.tearDown()
    }

    private static func report(_ store: any DataStore, _ id: ItemID) throws {
        let item = try store.read { try $0.item(ofType: "Note", id: id) }
        Worker.report(item.map(String.init(describing:)) ?? "missing \(id)")
    }
}
