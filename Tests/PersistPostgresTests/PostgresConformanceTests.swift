import Persist
import PersistConformance
import Testing

@Suite("PostgresDataStore keeps the DataStore contract")
struct PostgresConformanceTests {
    @Test("contract", arguments: ConformanceSuite.tests(for: .postgres, in: ConformanceTest.Group.allButConcurrency))
    func contract(_ test: ConformanceTest) async throws {
        try await test.run(with: .postgres)
    }

    @Test("concurrency", arguments: ConformanceSuite.tests(for: .postgres, in: [.concurrency]))
    func concurrency(_ test: ConformanceTest) async throws {
        try await test.run(with: .postgres)
    }
}

@Suite("A child of PostgresDataStore keeps the DataStore contract")
struct PostgresChildConformanceTests {
    static let factory = StoreFactory.child(of: .postgres)

    @Test("contract", arguments: ConformanceSuite.tests(for: factory, in: ConformanceTest.Group.allButConcurrency))
    func contract(_ test: ConformanceTest) async throws {
        try await test.run(with: Self.factory)
    }

    @Test("concurrency", arguments: ConformanceSuite.tests(for: factory, in: [.concurrency]))
    func concurrency(_ test: ConformanceTest) async throws {
        try await test.run(with: Self.factory)
    }
}
