import CGDBM
import Dispatch
import Foundation
import Persist
import PersistConformance
import PersistGDBM
import PersistTestSupport
import Testing

@Suite("GDBM store under concurrent use")
struct GDBMConcurrencyTests {
    @Test("concurrency: filtered reads, writes and legacy raw-handle calls from many threads keep every invariant")
    func concurrencyWithRawHandle() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = GDBMDataStore(path: directory.path("shared.gdbm"), options: .init(logger: .quiet))
        try store.setup()
        defer { try? store.tearDown() }
        let accounts = 10
        try store.writeSync { accessor in
            for index in 0..<accounts {
                try accessor.insert(Item(itemType: "Account", id: .int(Int64(index)), attributes: ["balance": index == 0 ? 1000 : 0]))
            }
        }
        let violations = Locked<[String]>([])
        let rawCalls = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for step in 0..<25 {
                do {
                    switch (worker + step) % 4 {
                    case 0:
                        try store.writeSync { accessor in
                            let from = try accessor.mutableVersion(ofItem: Item(itemType: "Account", id: .int(Int64(step % accounts))))
                            let to = try accessor.mutableVersion(ofItem: Item(itemType: "Account", id: .int(Int64((step + worker) % accounts))))
                            from?["balance"] = .int((from?["balance"]?.intValue ?? 0) - 1)
                            to?["balance"] = .int((to?["balance"]?.intValue ?? 0) + 1)
                        }
                    case 1:
                        let key = try GDBMStorageFormat.encodeKey(itemType: "Account", id: 0)
                        let found = try store.withRawHandle { handle in
                            ForeignFile.withDatum(key) { gdbm_exists(handle, $0) != 0 }
                        }
                        if !found { violations.withLock { $0.append("the raw handle did not find Account/0") } }
                        rawCalls.withLock { $0 += 1 }
                    default:
                        let (sum, rich) = try store.read { accessor -> (Int64, Int) in
                            let all = try accessor.items(forRequest: DataStoreRequest(itemType: "Account"))
                            var request = DataStoreRequest(itemType: "Account")
                            request.filter = .attribute("balance") > 0
                            request.ordering = .unspecified
                            return (all.reduce(0) { $0 + ($1["balance"]?.intValue ?? 0) }, try accessor.countItems(forRequest: request))
                        }
                        if sum != 1000 { violations.withLock { $0.append("a read saw a total of \(sum)") } }
                        if rich < 1 { violations.withLock { $0.append("a read saw no account with money") } }
                    }
                } catch {
                    violations.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(violations.withLock { $0 }.isEmpty, "\(violations.withLock { $0 })")
        #expect(rawCalls.withLock { $0 } > 0)
    }
}
