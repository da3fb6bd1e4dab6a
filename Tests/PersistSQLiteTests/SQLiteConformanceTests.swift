import Persist
import PersistConformance
import Testing

private let allButConcurrency = Set(ConformanceTest.Group.allCases).subtracting([.concurrency])

@Suite("SQLiteDataStore on a file keeps the DataStore contract")
struct SQLiteFileConformanceTests {
    @Test("contract", arguments: ConformanceSuite.tests(for: .sqliteFile, in: allButConcurrency))
    func contract(_ test: ConformanceTest) async throws {
        try await test.run(with: .sqliteFile)
    }

    @Test("concurrency", arguments: ConformanceSuite.tests(for: .sqliteFile, in: [.concurrency]))
    func concurrency(_ test: ConformanceTest) async throws {
        try await test.run(with: .sqliteFile)
    }
}

@Suite("SQLiteDataStore.inMemory() keeps the DataStore contract")
struct SQLiteInMemoryConformanceTests {
    @Test("contract", arguments: ConformanceSuite.tests(for: .sqliteInMemory, in: allButConcurrency))
    func contract(_ test: ConformanceTest) async throws {
        try await test.run(with: .sqliteInMemory)
    }

    @Test("concurrency", arguments: ConformanceSuite.tests(for: .sqliteInMemory, in: [.concurrency]))
    func concurrency(_ test: ConformanceTest) async throws {
        try await test.run(with: .sqliteInMemory)
    }
}

@Suite("A child of SQLiteDataStore keeps the DataStore contract")
struct SQLiteChildConformanceTests {
    static let factory = StoreFactory.child(of: .sqliteFile)

    @Test("contract", arguments: ConformanceSuite.tests(for: factory, in: allButConcurrency))
    func contract(_ test: ConformanceTest) async throws {
        try await test.run(with: Self.factory)
    }

    @Test("concurrency", arguments: ConformanceSuite.tests(for: factory, in: [.concurrency]))
    func concurrency(_ test: ConformanceTest) async throws {
        try await test.run(with: Self.factory)
    }
}
