import Foundation
import Persist
import PersistTestSupport
import Testing

@Suite("persist-migrate killed at any moment leaves the target untouched or complete")
struct MigrateCrashTests {
    static let kills = 14

    /// Runs the tool and kills it with SIGKILL after a random delay, `kills` times, checking the
    /// source and the target after each kill.
    static func killRepeatedly(kind: String, existing: [Item], in directory: TemporaryDirectory) throws {
        let items = MigrateFixtures.items(count: 3_000)
        try MigrateFixtures.gdbm(directory.path("old.db"), holding: items)
        let source = fileBytes(directory.path("old.db"))
        let target = kind == "sqlite" ? "new.sqlite" : "new.db"
        var generator = SystemRandomNumberGenerator()
        // Time one whole run, to kill anywhere from the start to a little past its end.
        let started = Date()
        _ = try Tool.run(["--from", "gdbm:old.db", "--to", "\(kind):timing-\(target)", "--progress", "never"], in: directory.url)
        let duration = max(Date().timeIntervalSince(started), 0.05)
        var outcomes: [String: Int] = [:]
        for round in 0..<kills {
            try? FileManager.default.removeItem(atPath: directory.path(target))
            if !existing.isEmpty {
                if kind == "sqlite" {
                    try MigrateFixtures.sqlite(directory.path(target), holding: existing)
                } else {
                    try MigrateFixtures.gdbm(directory.path(target), holding: existing)
                }
            }
            let tool = try ChildProcess(product: "persist-migrate", [
                "--from", "gdbm:" + directory.path("old.db"), "--to", "\(kind):\(directory.path(target))", "--progress", "never",
            ])
            // Kill times spread from just after the start to well past a whole run, jittered.
            let share = 0.05 + 1.6 * Double(round) / Double(kills - 1) + Double.random(in: -0.04...0.04, using: &generator)
            if share > 1.3 {
                // The last rounds let the run finish, so that completed runs are checked too.
                _ = tool.waitForLines(Int.max, timeout: 60)
            } else {
                usleep(UInt32(max(share, 0.01) * duration * 1_000_000))
            }
            tool.kill()
            // Killed, or finished before the kill: then it must have succeeded.
            if let status = tool.exitStatus {
                #expect(status == 0, "round \(round): persist-migrate failed: \(tool.errorOutput)")
            }
            #expect(fileBytes(directory.path("old.db")) == source, "round \(round): the source changed")
            let exists = FileManager.default.fileExists(atPath: directory.path(target))
            if !exists {
                #expect(existing.isEmpty, "round \(round): the existing target vanished")
                outcomes["untouched", default: 0] += 1
                continue
            }
            let contents = try MigrateFixtures.contents(kind: kind, directory.path(target))
            if contents == Set(existing) {
                outcomes["untouched", default: 0] += 1
            } else {
                #expect(contents == Set(existing + items), "round \(round): the target is half-written")
                outcomes["complete", default: 0] += 1
            }
        }
        #expect(outcomes.values.reduce(0, +) == kills)
        // The last kills come well after a whole run takes, so some runs must have completed.
        #expect(outcomes["complete", default: 0] > 0, "no run completed: \(outcomes)")
        print("persist-migrate crash test (\(kind), \(existing.isEmpty ? "new" : "existing") target): \(outcomes)")
    }

    @Test("into a new SQLite database")
    func newSQLite() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.killRepeatedly(kind: "sqlite", existing: [], in: directory)
    }

    @Test("into an existing SQLite database")
    func existingSQLite() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.killRepeatedly(kind: "sqlite", existing: [Item(itemType: "Kept", id: 1, attributes: ["v": 1])], in: directory)
    }

    @Test("into an existing GDBM store")
    func existingGDBM() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.killRepeatedly(kind: "gdbm", existing: [Item(itemType: "Kept", id: 1, attributes: ["v": 1])], in: directory)
    }
}
