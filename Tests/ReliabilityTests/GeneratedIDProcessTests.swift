import Foundation
import Persist
import PersistPostgres
import PersistTestSupport
import Testing

@Suite("Generated identifiers across processes")
struct GeneratedIDProcessTests {
    @Test("processes writing one file at the same time never hand out the same generated identifier",
          arguments: StoreKind.allCases)
    func concurrentWriters(_ kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("ids.\(kind)")
        try Self.check(kind.store(path), workerArguments: [kind.rawValue, path])
    }

    @Test("processes writing one PostgreSQL schema at the same time never hand out the same generated identifier")
    func concurrentServerWriters() throws {
        let base = try CrashTests.PostgresWriteBlocks.serverURL()
        let schema = "persist_ids_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20)
        let quiet = CrashTests.PostgresWriteBlocks.quiet
        defer { try? PostgresDataStore.dropSchema(String(schema), at: PostgresURL(base), options: quiet) }
        let url = "\(base)?schema=\(schema)"
        try Self.check(PostgresDataStore(url: url, options: quiet), workerArguments: ["postgres", url])
    }

    /// Runs three workers that each insert 40 tickets with generated identifiers into the store
    /// the worker arguments name, then checks that no identifier was handed out twice and that
    /// `store` holds exactly the tickets handed out.
    static func check(_ store: any DataStore, workerArguments: [String]) throws {
        let perWorker = 40
        let workers = try (0..<3).map { _ in
            try ChildProcess(["ids"] + workerArguments + [String(perWorker)])
        }
        var handedOut: [String] = []
        for worker in workers {
            worker.closeInputAndWait()
            #expect(worker.exitStatus == 0, "a worker failed: \(worker.errorOutput)")
            handedOut += worker.lines
        }
        #expect(handedOut.count == 3 * perWorker)
        #expect(Set(handedOut).count == handedOut.count, "an identifier was handed out twice")
        try store.setup()
        defer { try? store.tearDown() }
        let stored = try store.read { accessor in try accessor.items(forRequest: DataStoreRequest(itemType: "Ticket")) }
        #expect(stored.count == 3 * perWorker)
        #expect(Set(stored.map(\.id.description)) == Set(handedOut))
    }
}
