import Persist
import PersistConformance
import Testing

@Suite("InMemoryDataStore keeps the DataStore contract")
struct InMemoryConformanceTests {
    @Test("contract", arguments: ConformanceSuite.tests(for: .inMemory, in: ConformanceTest.Group.allButConcurrency))
    func contract(_ test: ConformanceTest) async throws {
        try await test.run(with: .inMemory)
    }

    @Test("concurrency", arguments: ConformanceSuite.tests(for: .inMemory, in: [.concurrency]))
    func concurrency(_ test: ConformanceTest) async throws {
        try await test.run(with: .inMemory)
    }
}

@Suite("A child of InMemoryDataStore keeps the DataStore contract")
struct InMemoryChildConformanceTests {
    static let factory = StoreFactory.child(of: .inMemory)

    @Test("contract", arguments: ConformanceSuite.tests(for: factory, in: ConformanceTest.Group.allButConcurrency))
    func contract(_ test: ConformanceTest) async throws {
        try await test.run(with: Self.factory)
    }

    @Test("concurrency", arguments: ConformanceSuite.tests(for: factory, in: [.concurrency]))
    func concurrency(_ test: ConformanceTest) async throws {
        try await test.run(with: Self.factory)
    }
}
