import Foundation
import Persist
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
        let perWorker = 40
        let workers = try (0..<3).map { _ in
            try ChildProcess(["ids", kind.rawValue, path, String(perWorker)])
        }
        var handedOut: [String] = []
        for worker in workers {
            worker.closeInputAndWait()
            #expect(worker.exitStatus == 0, "a worker failed: \(worker.errorOutput)")
            handedOut += worker.lines
        }
        #expect(handedOut.count == 3 * perWorker)
        #expect(Set(handedOut).count == handedOut.count, "an identifier was handed out twice")
        let store = kind.store(path)
        try store.setup()
        defer { try? store.tearDown() }
        let stored = try store.read { accessor in try accessor.items(forRequest: DataStoreRequest(itemType: "Ticket")) }
        #expect(stored.count == 3 * perWorker)
        #expect(Set(stored.map(\.id.description)) == Set(handedOut))
    }
}
