import Foundation
import Persist

/// The `DataStoreEngine` of ``GDBMDataStore``: opens and closes a ``GDBMSession`` and forwards
/// blocks to it.
final class GDBMEngine: DataStoreEngine {
    let location: String
    let options: GDBMDataStore.Options
    private let current = Locked<GDBMSession?>(nil)

    init(path: String, options: GDBMDataStore.Options) {
        location = path
        self.options = options
    }

    func open() throws {
        let session = try GDBMSession.open(path: location, options: options)
        current.withLock { $0 = session }
    }

    func close() throws {
        let session = current.withLock { current -> GDBMSession? in
            defer { current = nil }
            return current
        }
        try session?.close()
    }

    /// The open session.
    func session() throws -> GDBMSession {
        guard let session = current.withLock({ $0 }) else {
            throw DataStoreError(.misuse, "the store at \(location) is not set up; call setup() first", path: location)
        }
        return session
    }

    func read<T>(_ body: (any StoreReader) throws -> T) throws -> T {
        try session().read(body)
    }

    func write<T>(_ body: (any StoreWriter) throws -> (value: T, commit: Bool)) throws -> T {
        try session().write(body)
    }
}
