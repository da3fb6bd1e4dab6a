import Foundation
import Persist

/// How the conformance suite makes the store under test.
///
/// A factory is given a fresh, empty temporary directory and returns a store that is **not yet
/// set up**. For a persistent store, calling the factory again with the same directory must open
/// the same data (the suite uses it to check that data survives `DataStore.tearDown()`).
///
/// ```swift
/// let factory = StoreFactory(name: "my store", capabilities: [.persistent]) { directory in
///     MyStore(path: directory.appendingPathComponent("data.my").path)
/// }
/// ```
///
/// A store whose data lives outside the directory (on a database server, say) derives its place
/// from the directory and passes a `cleanup` closure, which the suite calls with the same
/// directory once the test has torn its stores down, to remove what the test left there:
///
/// ```swift
/// let server = StoreFactory(name: "server store", capabilities: [.persistent]) { directory in
///     ServerStore(url: url, schema: schemaName(for: directory))
/// } cleanup: { directory in
///     try ServerStore.dropSchema(schemaName(for: directory), at: url)
/// }
/// ```
public struct StoreFactory: Sendable, CustomStringConvertible {
    /// What the store can do beyond the common contract; tests of other features are not run.
    public struct Capabilities: OptionSet, Sendable, Hashable {
        /// The capability bits.
        public let rawValue: Int
        /// Capabilities from their bits.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// A new store object made for the same directory sees the data of an earlier, torn-down one.
        public static let persistent = Capabilities(rawValue: 1 << 0)
        /// Reads never wait for a write in progress, so a read block may wait for a write to commit.
        public static let readsDoNotBlockWrites = Capabilities(rawValue: 1 << 1)
        /// The engine keeps index declarations in its own storage, so a new store object made for
        /// the same directory knows the indexes an earlier one declared.
        public static let persistentIndexes = Capabilities(rawValue: 1 << 2)
        /// The store keeps composite identifiers (`ItemID.composite`), so the differential tests'
        /// random data includes them (the sections written for them run on every store).
        public static let compositeIdentifiers = Capabilities(rawValue: 1 << 3)
        /// The store keeps exact decimals (`Value.decimal`), so the differential tests' random
        /// data includes them (the sections written for them run on every store).
        public static let exactDecimals = Capabilities(rawValue: 1 << 4)
        /// The engine keeps relation declarations in its own storage, so a new store object made
        /// for the same directory knows, and enforces, the relations an earlier one declared.
        public static let persistentRelations = Capabilities(rawValue: 1 << 5)
        /// The kinds of data a child store keeps as its parent does.
        static let kinds: Capabilities = [.compositeIdentifiers, .exactDecimals]
    }

    /// The store's name in test output.
    public let name: String
    /// What the store can do.
    public let capabilities: Capabilities
    private let make: @Sendable (URL) throws -> any DataStore
    private let cleanup: (@Sendable (URL) throws -> Void)?

    /// Makes a factory.
    ///
    /// - Parameters:
    ///   - name: the store's name in test output.
    ///   - capabilities: what the store can do beyond the common contract.
    ///   - make: returns a store, not yet set up, keeping its files in the given directory.
    ///   - cleanup: removes what the stores made for a directory keep outside it (a database
    ///     schema on a server, say); called once per test, after its stores are torn down, also
    ///     when the test failed. `nil` when the directory holds everything.
    public init(
        name: String,
        capabilities: Capabilities = [],
        make: @escaping @Sendable (_ directory: URL) throws -> any DataStore,
        cleanup: (@Sendable (_ directory: URL) throws -> Void)? = nil
    ) {
        self.name = name
        self.capabilities = capabilities
        self.make = make
        self.cleanup = cleanup
    }

    /// A store (not set up) keeping its files in `directory`.
    public func makeStore(in directory: URL) throws -> any DataStore {
        try make(directory)
    }

    /// Removes what the stores made for `directory` keep outside it, with the factory's `cleanup`
    /// closure; does nothing for a factory without one.
    ///
    /// ```swift
    /// try factory.cleanUp(directory)
    /// ```
    public func cleanUp(_ directory: URL) throws {
        try cleanup?(directory)
    }

    /// A readable rendering, for messages and logs.
    public var description: String { name }

    /// Child stores of the stores `parent` makes: the whole suite then runs through a child, whose
    /// parent is set up in the same directory.
    ///
    /// ```swift
    /// let factory = StoreFactory.child(of: .inMemory)
    /// ```
    public static func child(of parent: StoreFactory) -> StoreFactory {
        let capabilities = parent.capabilities.intersection(.kinds).union(.readsDoNotBlockWrites)
        return StoreFactory(name: "child of \(parent.name)", capabilities: capabilities, make: { directory in
            let parentStore = try parent.makeStore(in: directory)
            try parentStore.setup()
            return try parentStore.makeChildDataStore()
        }, cleanup: parent.cleanup)
    }

    /// The in-memory store, which is not persistent and whose reads never block writes.
    public static let inMemory = StoreFactory(
        name: "InMemoryDataStore", capabilities: [.readsDoNotBlockWrites, .compositeIdentifiers, .exactDecimals]
    ) { _ in
        InMemoryDataStore()
    }
}
