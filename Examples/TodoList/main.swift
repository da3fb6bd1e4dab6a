// TodoList: what a to-do screen needs from a store, on an SQLite file: generated integer
// identifiers, a unique index, a live query that refreshes after each write, set-based updates
// and deletes, and aggregates — the code of the Persist guides for those features.
import Foundation
import Persist
import PersistSQLite

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("todolist-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let store = SQLiteDataStore(path: directory.appendingPathComponent("todos.sqlite").path)
try store.setup()
defer { try? store.tearDown() }

let start = Date(timeIntervalSinceReferenceDate: 800_000_000)

// Indexes: titles are unique, and the open list filters on "done".
try store.writeSync { accessor in
    try accessor.ensureIndex(ofType: "Todo", on: ["title"], unique: true)
    try accessor.ensureIndex(ofType: "Todo", on: ["done"], unique: false)
}
print("indexes:", try store.indexes(ofType: "Todo").map { "\($0.attributes)\($0.isUnique ? " unique" : "")" }
    .joined(separator: ", "))

// Generated identifiers: one above every integer identifier of the type, assigned in the write.
let first: ItemID = try store.writeSync { accessor in
    let todo = try accessor.createItem(ofType: "Todo", idGeneration: .nextInteger)
    todo["title"] = "Buy milk"
    todo["done"] = false
    todo["due"] = .date(start)
    todo["minutes"] = 10
    return todo.id
}
try store.writeSync { accessor in
    let id = try accessor.nextIntegerID(ofType: "Todo")
    try accessor.insert(Item(itemType: "Todo", id: .int(id), attributes: [
        "title": "Call the bank", "done": false, "due": .date(start.addingTimeInterval(3_600)), "minutes": 20,
    ]))
    try accessor.insert(Todo(id: 0, title: "Book the dentist", due: start.addingTimeInterval(7_200)),
                        idGeneration: .nextInteger)
}
print("first identifier: \(first), all:", try store.read { try $0.getAll(Todo.self).map(\.id) })

// The unique index refuses a second "Buy milk", and the block writes nothing.
do {
    try store.writeSync { accessor in
        try accessor.insert(Todo(id: 0, title: "Water the plants"), idGeneration: .nextInteger)
        try accessor.insert(Todo(id: 0, title: "Buy milk"), idGeneration: .nextInteger)
    }
} catch let error as DataStoreError {
    print("a second 'Buy milk': \(error.code), still \(try store.read { try $0.countItems(forRequest: DataStoreRequest(itemType: "Todo")) }) to-dos")
}

// A live query: the open to-dos, soonest first, now and after every write that changes them.
var open = DataStoreRequest(itemType: "Todo")
open.filter = .attribute("done") == false
open.setSort(byKey: "due", ascending: true)
let screen = Screen()
let rendering = Task {
    for try await todos in store.observe(Todo.self, open) {
        await screen.render(todos)
    }
}
try await screen.waitForRender(1)

// Set-based writes: one statement each on SQLite. The screen shows the list again after the first
// (a to-do left the open list) and after the second (an open to-do changed); deleting done
// to-dos alone would change nothing on it.
try store.writeSync { accessor in
    var early = DataStoreRequest(itemType: "Todo")
    early.filter = .attribute("due") < .date(start.addingTimeInterval(1_800))
    print("marked done:", try accessor.updateItems(forRequest: early, setting: ["done": true]))
}
try await screen.waitForRender(2)
var done = DataStoreRequest(itemType: "Todo")
done.filter = .attribute("done") == true
try store.writeSync { accessor in
    print("removed:", try accessor.deleteItems(forRequest: done))
    var overdue = DataStoreRequest(itemType: "Todo")
    overdue.filter = .attribute("due") < .date(start.addingTimeInterval(5_000))
    print("flagged late:", try accessor.updateItems(forRequest: overdue, setting: ["late": true, "snoozed": .null]))
}
try await screen.waitForRender(3)
rendering.cancel()                         // ends the observation and releases it
_ = await rendering.result

// Aggregates over what is left.
let all = DataStoreRequest(itemType: "Todo")
let (longest, total, mean, latest) = try store.read { accessor in
    (try accessor.maximum(of: "minutes", forRequest: all),
     try accessor.sum(of: "minutes", forRequest: all),
     try accessor.average(of: "minutes", forRequest: all),
     try accessor.maximum(of: "due", forRequest: all))
}
print("longest: \(longest.map { "\($0)" } ?? "none") min, total: \(total) min, mean: \(mean.map { "\($0)" } ?? "none") min")
print("last due:", latest == .date(start.addingTimeInterval(7_200)) ? "Book the dentist's" : "\(String(describing: latest))")
