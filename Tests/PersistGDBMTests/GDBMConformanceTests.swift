import Foundation
import Logging
import Persist
import PersistConformance
import PersistGDBM
import Testing

extension StoreFactory {
    /// GDBM stores in the native layout, one file per test directory.
    static let gdbm = StoreFactory(
        name: "GDBMDataStore", capabilities: [.persistent, .persistentIndexes, .persistentRelations, .compositeIdentifiers, .exactDecimals]
    ) { directory in
        GDBMDataStore(path: directory.appendingPathComponent("store.gdbm").path, options: .init(logger: .quiet))
    }

    /// GDBM stores that sync every commit.
    static let gdbmFull = StoreFactory(name: "GDBMDataStore (durability full)", capabilities: [.persistent, .persistentIndexes, .persistentRelations, .compositeIdentifiers, .exactDecimals]) { directory in
        GDBMDataStore(path: directory.appendingPathComponent("store.gdbm").path, options: .init(durability: .full, logger: .quiet))
    }
}

@Suite("GDBMDataStore keeps the DataStore contract")
struct GDBMConformanceTests {
    @Test("contract",
          arguments: ConformanceSuite.tests(for: .gdbm, in: ConformanceTest.Group.allButConcurrency))
    func contract(_ test: ConformanceTest) async throws {
        try await test.run(with: .gdbm)
    }

    @Test("concurrency", arguments: ConformanceSuite.tests(for: .gdbm, in: [.concurrency]))
    func concurrency(_ test: ConformanceTest) async throws {
        try await test.run(with: .gdbm)
    }

    @Test("contract with durability full", arguments: ConformanceSuite.tests(for: .gdbmFull, in: [.lifecycle, .blocks, .items]))
    func contractFull(_ test: ConformanceTest) async throws {
        try await test.run(with: .gdbmFull)
    }
}

@Suite("A child of GDBMDataStore keeps the DataStore contract")
struct GDBMChildConformanceTests {
    static let factory = StoreFactory.child(of: .gdbm)

    @Test("contract", arguments: ConformanceSuite.tests(for: factory, in: ConformanceTest.Group.allButConcurrency))
    func contract(_ test: ConformanceTest) async throws {
        try await test.run(with: Self.factory)
    }

    @Test("concurrency", arguments: ConformanceSuite.tests(for: factory, in: [.concurrency]))
    func concurrency(_ test: ConformanceTest) async throws {
        try await test.run(with: Self.factory)
    }
}
