import Persist

/// A complete `DataStore` kept in one JSON file: the example of a wrapper of your own.
///
/// Conforming to ``EngineBackedDataStore`` is all the store itself has to do: the scheduler gives
/// it the whole contract — read and write blocks, `writeAsync`, `flush`, the `async` variants,
/// accessors, mutable items, typed entities and child stores.
///
/// ```swift
/// let store = JSONFileStore(path: "notes.json")
/// try store.setup()
/// try store.writeSync { accessor in try accessor.insert(Item(itemType: "Note", id: 1, attributes: ["text": "hi"])) }
/// ```
public final class JSONFileStore: EngineBackedDataStore {
    public let scheduler: WriteScheduler
    private let engine: JSONFileEngine

    /// A store on the JSON file at `path`, created at the first commit.
    public init(path: String) {
        engine = JSONFileEngine(path: path)
        scheduler = WriteScheduler(engine: engine, logger: .init(label: "json-file-store"))
    }

    /// How often the store's blocks took each fast path it opts into, since the store was made.
    public var fastPaths: JSONFileFastPaths { engine.fastPaths.value }
}
