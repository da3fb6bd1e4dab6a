// GDBMAdoption: a session table kept in a GDBM file by C calls, moved onto Persist in place with
// the raw layout: the file's format never changes, and unmoved call sites keep working.
import Foundation
import Persist

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("persist-gdbm-adoption-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let path = directory.appendingPathComponent("sessions.dbm").path

// Before: the legacy program.
do {
    let legacy = try LegacySessions(path: path)
    try legacy.start(token: "a1b2", user: "ada")
    try legacy.start(token: "c3d4", user: "bob")
    print("before: a1b2 is \(legacy.user(for: "a1b2") ?? "unknown")")
}

// During and after: the same file through the store.
do {
    let sessions = try SessionStore(path: path)
    try sessions.start(token: "e5f6", user: "cleo")
    try sessions.end(token: "c3d4")
    print("during: c3d4 is \(try sessions.user(for: "c3d4") ?? "gone"), e5f6 is \(try sessions.user(for: "e5f6") ?? "unknown")")
    print("during: \(try sessions.activeCount()) active sessions")
    try sessions.store.tearDown()
}

// The legacy code still reads what the store wrote: the pairs are plain key/value bytes.
let legacy = try LegacySessions(path: path)
print("legacy code sees e5f6 as \(legacy.user(for: "e5f6") ?? "unknown")")
