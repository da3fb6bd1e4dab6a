// LegacyAdoption: one to-do list, moved from raw sqlite3 calls onto Persist one call site at a
// time, on the same database file throughout: before, during, after.
import Foundation
import Persist
import PersistSQLite

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("persist-legacy-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let path = directory.appendingPathComponent("todo.sqlite").path

// Before: the legacy program creates and uses the database with the C API.
do {
    let legacy = try LegacyTodoList(path: path)
    try legacy.add("Buy milk", due: "2026-11-22")
    try legacy.add("Call the bank", due: nil)
    try legacy.markDone(1)
    print("before: \(try legacy.openTitles().joined(separator: ", "))")
}

// During: the same file as a DataStore; some call sites moved, one still on raw SQL.
do {
    let adopting = try AdoptingTodoList(path: path)
    try adopting.add("Renew passport", due: "2027-01-31")
    try adopting.markDone(2)
    print("during: \(try adopting.openTitles().joined(separator: ", "))")
    // The legacy code still works on the file the store now also uses.
    try adopting.store.tearDown()
    let legacy = try LegacyTodoList(path: path)
    print("during, legacy code sees: \(try legacy.openTitles().joined(separator: ", "))")
}

// After: all call sites on the DataStore API, with a typed entity.
let store = SQLiteDataStore(path: path)
try store.setup()
let todos = TodoList(store: store)
try todos.add("Book the dentist", due: nil)
try todos.markDone(3)
print("after: \(try todos.openTitles().joined(separator: ", "))")
let everything = try store.read { accessor in try accessor.getAll(Todo.self) }
print("after: \(everything.count) to-dos, \(everything.filter { $0.done == 1 }.count) done")
try store.tearDown()
