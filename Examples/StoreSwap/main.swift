// StoreSwap: the app swaps its store from GDBM to SQLite by changing one line in its
// DataStoreClient; the first launch after the swap migrates the data with Migration.
import Foundation
import Persist

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("persist-swap-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

struct Restaurant: DataStoreEntity, Equatable {
    static let itemType = "Restaurant"
    var id: Int
    var name: String
    var rating: Int
}

func launch(_ number: Int, kind: DataStoreClient.Kind, adding name: String) throws {
    let store = try DataStoreClient.makeStore(kind: kind, in: directory)
    defer { try? store.tearDown() }
    try store.writeSync { accessor in
        // The store generates the identifier (the model's 0 is a placeholder) on GDBM and SQLite alike.
        try accessor.insert(Restaurant(id: 0, name: name, rating: 4), idGeneration: .nextInteger)
    }
    let names = try store.read { accessor in try accessor.getAll(Restaurant.self).map(\.name) }
    print("launch \(number) on \(kind.rawValue): \(names.joined(separator: ", "))")
}

try launch(1, kind: .gdbm, adding: "Pizza Place")
try launch(2, kind: .gdbm, adding: "Noodle Bar")
// The app now ships with `kind: .sqlite`.
try launch(3, kind: .sqlite, adding: "Curry House")
try launch(4, kind: .sqlite, adding: "Taco Stand")
let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
print("files: \(files.joined(separator: ", "))")
