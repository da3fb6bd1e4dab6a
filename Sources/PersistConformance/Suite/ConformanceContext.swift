import Foundation
import Persist
import Testing

/// What one conformance test runs with: the factory, its own temporary directory, and the stores
/// it opened (torn down at the end).
public final class ConformanceContext: Sendable {
    /// The factory under test.
    public let factory: StoreFactory
    /// The test's own temporary directory, removed when the test ends.
    public let directory: URL
    private let opened = Locked<[any DataStore]>([])

    init(factory: StoreFactory) throws {
        self.factory = factory
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("persist-conformance-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// A store for this test's directory, set up. Torn down when the test ends.
    public func makeStore() throws -> any DataStore {
        let store = try makeUnopenedStore()
        try store.setup()
        return store
    }

    /// A store for this test's directory, not set up yet. Torn down when the test ends.
    public func makeUnopenedStore() throws -> any DataStore {
        let store = try factory.makeStore(in: directory)
        opened.withLock { $0.append(store) }
        return store
    }

    /// Tears down every store the test opened, runs the factory's cleanup, and removes the
    /// directory. A cleanup that fails is recorded as an issue of the test.
    func finish() {
        let stores = opened.withLock { $0 }
        for store in stores {
            try? store.tearDown()
            var ancestor = (store as? ChildDataStore)?.parent
            while let parent = ancestor {
                try? parent.tearDown()
                ancestor = (parent as? ChildDataStore)?.parent
            }
        }
        do {
            try factory.cleanUp(directory)
        } catch {
            Issue.record("cleaning up after the test failed: \(error)")
        }
        try? FileManager.default.removeItem(at: directory)
    }
}
