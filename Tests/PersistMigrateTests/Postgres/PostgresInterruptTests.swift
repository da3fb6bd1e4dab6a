import Foundation
import Persist
import PersistTestSupport
import Testing

/// SIGINT into a PostgreSQL schema that already holds items: the copy's transaction rolls back,
/// and the tool says the schema was left as it was, not that none was created.
@Suite("persist-migrate stops cleanly on SIGINT into PostgreSQL", .serialized)
struct PostgresInterruptTests {
    @Test("SIGINT into an existing schema: exit 130, the schema as it was, and the message says so")
    func sigintIntoExistingSchema() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        let kept = [Item(itemType: "Kept", id: 1)]
        try pg.seed(kept)
        try StoreFiles.gdbm(directory.path("old.db"), holding: StoreFiles.items(count: 20_000))
        let arguments = [directory.path("old.db"), pg.url, "--progress", "never"]
        let timing = try PostgresScratch()
        defer { timing.drop() }
        let started = Date()
        let timed = try Tool.run([directory.path("old.db"), timing.url, "--progress", "never"], in: directory.url)
        #expect(timed.status == 0, "the timing run failed: \(timed.stderr)")
        let duration = Date().timeIntervalSince(started)
        var interrupted = 0
        for share in [0.3, 0.5, 0.7] {
            let tool = try ChildProcess(product: "persist-migrate", arguments)
            usleep(UInt32(share * duration * 1_000_000))
            tool.signal(SIGINT)
            guard tool.exitStatus != 0 else { break }
            interrupted += 1
            #expect(tool.exitStatus == 130)
            let message = tool.errorOutput
            #expect(message.contains("\(pg.url) was left as it was"), "\(message)")
            #expect(!message.contains("was created"), "\(message)")
            #expect(try pg.contents() == Set(kept))
        }
        #expect(interrupted > 0, "no signal landed during the copy")
    }
}
