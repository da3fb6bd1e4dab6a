import Logging
import Persist

/// A store around a test's own engine, which the test keeps at hand to look at.
///
/// ```swift
/// let store = EngineStore(WatchedEngine())
/// try store.setup()
/// print(store.engine.location)
/// ```
final class EngineStore<Engine: DataStoreEngine>: EngineBackedDataStore {
    let scheduler: WriteScheduler
    let engine: Engine

    init(_ engine: Engine) {
        self.engine = engine
        scheduler = WriteScheduler(engine: engine, logger: Logger(label: "persist.tests.\(engine.location)"))
    }
}
