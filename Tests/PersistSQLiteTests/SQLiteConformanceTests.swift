import Persist
import PersistConformance
import Testing

@Suite("SQLiteDataStore on a file keeps the DataStore contract")
struct SQLiteFileConformanceTests {
    @Test("contract", arguments: ConformanceSuite.tests(for: .sqliteFile, in: ConformanceTest.Group.allButConcurrency))
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
    @Test("contract", arguments: ConformanceSuite.tests(for: .sqliteInMemory, in: ConformanceTest.Group.allButConcurrency))
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

    @Test("contract", arguments: ConformanceSuite.tests(for: factory, in: ConformanceTest.Group.allButConcurrency))
    func contract(_ test: ConformanceTest) async throws {
        try await test.run(with: Self.factory)
    }

    @Test("concurrency", arguments: ConformanceSuite.tests(for: factory, in: [.concurrency]))
    func concurrency(_ test: ConformanceTest) async throws {
        try await test.run(with: Self.factory)
    }
}
