import Foundation
import Persist
import PersistPostgres
import PersistTestSupport
import Testing

extension CrashTests {
    /// `persist-migrate` into PostgreSQL killed with SIGKILL at random points of its run (opening,
    /// creating tables, during the binary COPY, committing): the target schema is as it was or
    /// complete, never half-written.
    @Suite("persist-migrate into PostgreSQL")
    struct MigrationsToPostgres {
        static let sourceItems = 20_000

        static func contents(_ url: String) throws -> Set<Item> {
            let store = PostgresDataStore(url: url, options: PostgresWriteBlocks.quiet)
            try store.setup()
            defer { try? store.tearDown() }
            return try store.read { accessor in
                Set(try accessor.itemTypes().flatMap { try accessor.items(forRequest: DataStoreRequest(itemType: $0)) })
            }
        }

        @Test("a migration into PostgreSQL killed with SIGKILL leaves the schema as it was or complete",
              arguments: MigrateTarget.allCases)
        func killedMigration(_ target: MigrateTarget) throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let base = try PostgresWriteBlocks.serverURL()
            let schema = "persist_crash_migrate_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12)
            defer { try? PostgresDataStore.dropSchema(String(schema), at: PostgresURL(base), options: PostgresWriteBlocks.quiet) }
            let url = "\(base)?schema=\(schema)"
            let crash = CrashCase("migrate-postgres-\(target.rawValue)")
            let items = StoreFiles.items(count: Self.sourceItems)
            let source = directory.path("source.sqlite")
            try StoreFiles.sqlite(source, holding: items)
            let existing = target == .existing ? [Item(itemType: "Kept", id: 1, attributes: ["v": 1])] : []
            let arguments = [source, url, "--progress", "never", "--no-verify"]

            func reset() throws {
                try? PostgresDataStore.dropSchema(String(schema), at: PostgresURL(base), options: PostgresWriteBlocks.quiet)
                if !existing.isEmpty {
                    let store = PostgresDataStore(url: url, options: PostgresWriteBlocks.quiet)
                    try store.setup()
                    try store.writeSync { accessor throws in for item in existing { try accessor.insert(item) } }
                    try store.tearDown()
                }
            }
            try reset()
            let started = Date()
            let timing = try ProductRunner.run("persist-migrate", arguments)
            #expect(timing.status == 0, "the timing run failed: \(timing.stderr)")
            let duration = max(Date().timeIntervalSince(started), 0.05)

            for round in 0..<crash.kills {
                try reset()
                let tool = try ChildProcess(product: "persist-migrate", arguments)
                let share = 0.05 + 1.5 * Double(round) / Double(max(crash.kills - 1, 1)) + .random(in: -0.04...0.04)
                usleep(UInt32(max(share, 0.01) * duration * 1_000_000))
                // The last round lets the run finish, however much slower than the timing run a busy
                // machine makes it, so that one outcome is a run that was never cut short.
                if round == crash.kills - 1 { tool.waitForExit(timeout: 120) }
                tool.kill()
                crash.countKill()
                if let status = tool.exitStatus {
                    crash.check(status == 0, round: round, "persist-migrate exited with \(status) before the kill: \(tool.errorOutput)")
                }
                let contents = try Self.contents(url)
                if contents == Set(existing) {
                    crash.count("untouched")
                } else {
                    crash.check(contents == Set(existing + items), round: round,
                                "the target is half-written: \(contents.count) items")
                    crash.count(contents == Set(existing + items) ? "complete" : "half-written")
                }
            }
            crash.finish()
            #expect(crash.outcomes["untouched", default: 0] > 0, "no kill landed before the commit: \(crash.outcomes)")
            #expect(crash.outcomes["complete", default: 0] > 0, "no run completed: \(crash.outcomes)")
        }
    }

    /// What a run copies into: an empty schema, or one that already holds an item.
    enum MigrateTarget: String, Sendable, CaseIterable {
        case new, existing
    }
}
