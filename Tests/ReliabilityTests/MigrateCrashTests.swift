import Foundation
import Persist
import PersistTestSupport
import Testing

extension CrashTests {
    @Suite("persist-migrate")
    struct Migrations {
        static let sourceItems = 3_000

        /// What a run copies into: a new file, or one that already holds an item.
        enum Target: String, Sendable, CaseIterable {
            case new, existing
        }

        /// Runs the tool from a store of the other kind into a `kind` target and kills it with
        /// SIGKILL after a delay spread from just after its start to well past a whole run,
        /// checking the source and the target after each kill.
        @Test("a migration killed with SIGKILL leaves the target untouched or complete and the source as it was",
              arguments: Target.allCases, StoreKind.allCases)
        func killedMigration(_ target: Target, _ kind: StoreKind) throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let crash = CrashCase("migrate-\(target.rawValue)-\(kind)")
            let sourceKind: StoreKind = kind == .sqlite ? .gdbm : .sqlite
            let items = StoreFiles.items(count: Self.sourceItems)
            let source = directory.path("source.\(sourceKind)")
            try StoreFiles.create(sourceKind, source, holding: items)
            let sourceBytes = fileBytes(source)
            let existing = target == .existing ? [Item(itemType: "Kept", id: 1, attributes: ["v": 1])] : []
            let path = directory.path("target.\(kind)")
            let arguments = ["--from", "\(sourceKind):\(source)", "--to", "\(kind):\(path)", "--progress", "never"]

            // Time one whole run, to spread the kills from its start to a little past its end.
            let started = Date()
            let timing = try ProductRunner.run("persist-migrate", [
                "--from", "\(sourceKind):\(source)", "--to", "\(kind):\(directory.path("timing.\(kind)"))", "--progress", "never",
            ])
            #expect(timing.status == 0, "the timing run failed: \(timing.stderr)")
            let duration = max(Date().timeIntervalSince(started), 0.05)

            for round in 0..<crash.kills {
                try kind.removeFiles(path)
                if !existing.isEmpty { try StoreFiles.create(kind, path, holding: existing) }
                let tool = try ChildProcess(product: "persist-migrate", arguments)
                let share = 0.05 + 2.0 * Double(round) / Double(max(crash.kills - 1, 1)) + .random(in: -0.04...0.04)
                usleep(UInt32(max(share, 0.01) * duration * 1_000_000))
                // The last round lets the run finish, however much slower than the timing run a busy
                // machine makes it, so that one outcome is a run that was never cut short.
                if round == crash.kills - 1 { tool.waitForExit(timeout: 120) }
                tool.kill()
                crash.countKill()
                if let status = tool.exitStatus {
                    crash.check(status == 0, round: round, "persist-migrate exited with \(status) before the kill: \(tool.errorOutput)")
                }
                crash.check(fileBytes(source) == sourceBytes, round: round, "the source changed")
                let contents = FileManager.default.fileExists(atPath: path) ? try StoreFiles.contents(kind, path) : nil
                if contents == nil || contents == Set(existing) {
                    crash.check(contents != nil || existing.isEmpty, round: round, "the existing target vanished")
                    crash.count("untouched")
                } else {
                    crash.check(contents == Set(existing + items), round: round,
                                "the target is half-written: \(contents?.count ?? 0) items")
                    crash.count(contents == Set(existing + items) ? "complete" : "half-written")
                }
            }
            crash.finish()
            // The first kills come early in a run and the last ones after a whole run takes.
            #expect(crash.outcomes["untouched", default: 0] > 0, "no kill landed before the target was replaced: \(crash.outcomes)")
            #expect(crash.outcomes["complete", default: 0] > 0, "no run completed: \(crash.outcomes)")
        }
    }
}
