import Foundation
import JSONFileStore
import Persist
import PersistConformance
import Testing

extension StoreFactory {
    /// The example wrapper, on a JSON file in the test's directory.
    static let jsonFile = StoreFactory(name: "JSONFileStore", capabilities: [.persistent, .readsDoNotBlockWrites, .compositeIdentifiers, .exactDecimals]) { directory in
        JSONFileStore(path: directory.appendingPathComponent("items.json").path)
    }
}

@Suite("The example wrapper JSONFileStore keeps the DataStore contract")
struct JSONFileStoreConformanceTests {
    @Test("contract", arguments: ConformanceSuite.tests(for: .jsonFile, in: ConformanceTest.Group.allButConcurrency))
    func contract(_ test: ConformanceTest) async throws {
        try await test.run(with: .jsonFile)
    }

    @Test("concurrency", arguments: ConformanceSuite.tests(for: .jsonFile, in: [.concurrency]))
    func concurrency(_ test: ConformanceTest) async throws {
        try await test.run(with: .jsonFile)
    }
}
