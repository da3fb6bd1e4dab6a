import Foundation
import Persist
import PersistTestSupport
import Testing

/// SIGINT and SIGTERM stop the tool cleanly: it says so, exits 130 or 143, leaves no staging file,
/// and the target is as it was. A signal that comes after the copy was swapped in finds a
/// complete target and a run that succeeded.
// Serialized: each test blocks a test thread for the runs it interrupts.
@Suite("persist-migrate stops cleanly on SIGINT and SIGTERM", .serialized)
struct InterruptTests {
    static let items = 20_000

    /// Interrupts runs copying `old.db` into `target` at spread moments; `existing` is what the
    /// target holds before each run (nothing: no file).
    static func interrupt(_ signal: Int32, into target: String, existing: [Item], extra: [String] = []) throws -> [String: Int] {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let items = StoreFiles.items(count: Self.items)
        try StoreFiles.gdbm(directory.path("old.db"), holding: items)
        let arguments = [directory.path("old.db"), directory.path(target), "--progress", "never"] + extra
        func reset() throws {
            try StoreKind.sqlite.removeFiles(directory.path(target))
            if !existing.isEmpty { try StoreFiles.sqlite(directory.path(target), holding: existing) }
        }
        try reset()
        let started = Date()
        let timing = try Tool.run(arguments, in: directory.url)
        #expect(timing.status == 0, "the timing run failed: \(timing.stderr)")
        let duration = Date().timeIntervalSince(started)
        var outcomes: [String: Int] = [:]
        for share in [0.3, 0.5, 0.7, 0.9] {
            try reset()
            let before = ExitCase.snapshotFiles(directory)
            let tool = try ChildProcess(product: "persist-migrate", arguments)
            usleep(UInt32(share * duration * 1_000_000))
            tool.signal(signal)
            let after = ExitCase.snapshotFiles(directory)
            let staged = after.keys.filter { $0.contains("persist-migrate") }
            #expect(staged.isEmpty, "staging files left after \(share): \(staged)")
            if tool.exitStatus == 0 {
                outcomes["completed", default: 0] += 1
                #expect(try StoreFiles.contents(.sqlite, directory.path(target)) == Set(existing + items))
            } else {
                outcomes["interrupted", default: 0] += 1
                #expect(tool.exitStatus == (signal == SIGTERM ? 143 : 130), "status \(String(describing: tool.exitStatus))")
                let message = tool.errorOutput
                #expect(message.contains(signal == SIGTERM ? "stopped by SIGTERM" : "stopped by SIGINT"), "\(message)")
                #expect(message.contains(existing.isEmpty ? "no \(directory.path(target)) was created"
                                                           : "\(directory.path(target)) was left as it was"), "\(message)")
                #expect(after == before, "the directory changed: \(Set(after.keys).symmetricDifference(before.keys))")
            }
        }
        return outcomes
    }

    @Test("SIGINT into a new target: exit 130, no target, no staging file; or a complete copy")
    func sigint() throws {
        let outcomes = try Self.interrupt(SIGINT, into: "new.sqlite", existing: [])
        #expect(outcomes["interrupted", default: 0] > 0, "no signal landed during the copy: \(outcomes)")
    }

    @Test("SIGTERM into an existing SQLite target: exit 143, the target byte for byte as it was")
    func sigterm() throws {
        let outcomes = try Self.interrupt(SIGTERM, into: "existing.sqlite", existing: [Item(itemType: "Kept", id: 1)],
                                          extra: ["--if-exists", "skip"])
        #expect(outcomes["interrupted", default: 0] > 0, "no signal landed during the copy: \(outcomes)")
    }
}

extension InterruptTests {
    @Test("SIGINT and SIGTERM while a PostgreSQL server does not answer stop the run at once, as the signal says",
          arguments: [SIGINT, SIGTERM])
    func signalWhileConnecting(signal: Int32) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try SilentServer()
        try StoreFiles.gdbm(directory.path("old.db"), holding: StoreFiles.items(count: 5))
        let url = "postgresql://app@127.0.0.1:\(server.port)/app"
        for arguments in [[directory.path("old.db"), url], [url, directory.path("new.sqlite")]] {
            let tool = try ChildProcess(product: "persist-migrate", arguments + ["--progress", "never"])
            usleep(500_000)
            let sent = Date()
            tool.signal(signal)
            // Not the 10 seconds of the connect timeout.
            #expect(Date().timeIntervalSince(sent) < 5)
            #expect(tool.exitStatus == (signal == SIGTERM ? 143 : 130))
            let message = tool.errorOutput
            #expect(message.contains(signal == SIGTERM ? "stopped by SIGTERM" : "stopped by SIGINT"), "\(message)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["old.db"])
        }
    }
}

extension ExitCase {
    /// Every file of a directory with its bytes.
    static func snapshotFiles(_ directory: TemporaryDirectory) -> [String: [UInt8]] {
        (try? snapshot(directory)) ?? [:]
    }
}
