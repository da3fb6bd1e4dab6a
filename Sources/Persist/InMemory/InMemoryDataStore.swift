import Logging

/// A complete ``DataStore`` that keeps everything in memory: the fast store for unit tests
/// (JustPersist's `inMemoryStack`), and a reference for the contract.
///
/// Reads see snapshots that cost nothing to take; writes are serialized and atomic. Data lives as
/// long as the object: ``tearDown()`` followed by ``setup()`` keeps it.
///
/// ```swift
/// let store = InMemoryDataStore()
/// try store.setup()
/// try store.writeSync { accessor in
///     try accessor.insert(Item(itemType: "Restaurant", id: "r1", attributes: ["name": "Pizza Place"]))
/// }
/// ```
public final class InMemoryDataStore: EngineBackedDataStore {
    /// The scheduler that gives the store the whole ``DataStore`` contract.
    public let scheduler: WriteScheduler

    /// Makes an empty in-memory store.
    ///
    /// - Parameter logger: where lifecycle events and unobserved asynchronous write failures go.
    public init(logger: Logger = Logger(label: "persist.memory", factory: { _ in SwiftLogNoOpLogHandler() })) {
        scheduler = WriteScheduler(engine: InMemoryEngine(), logger: logger)
    }
}
