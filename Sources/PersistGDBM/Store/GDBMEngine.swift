import Foundation
import Persist

/// The `DataStoreEngine` of ``GDBMDataStore``: opens and closes a ``GDBMOpenFile`` and forwards
/// blocks to it.
final class GDBMEngine: DataStoreEngine {
    let location: String
    let options: GDBMDataStore.Options
    /// Whether the file is built privately (see ``GDBMDataStore/buildingPrivateFile(at:options:)``).
    let buildsPrivateFile: Bool
    let current = Locked<GDBMOpenFile?>(nil)
    /// The device and inode of the file while live queries watch it (see `GDBMEngine+Observation.swift`).
    let watchedFile = Locked<FileIdentity?>(nil)

    init(path: String, options: GDBMDataStore.Options, buildsPrivateFile: Bool = false) {
        location = path
        self.options = options
        self.buildsPrivateFile = buildsPrivateFile
    }

    func open() throws {
        let openFile = try GDBMOpenFile.open(path: location, options: options, buildsPrivateFile: buildsPrivateFile)
        current.withLock { $0 = openFile }
    }

    func close() throws {
        let openFile = current.withLock { current -> GDBMOpenFile? in
            defer { current = nil }
            return current
        }
        try openFile?.close()
    }

    /// The open openFile.
    func openFile() throws -> GDBMOpenFile {
        guard let openFile = current.withLock({ $0 }) else {
            throw DataStoreError(.misuse, "the store at \(location) is not set up; call setup() first", path: location)
        }
        return openFile
    }

    /// Runs legacy code on the open file's handle. A file it rebuilt in place (`gdbm_reorganize`)
    /// is the one live queries watch from then on, as it is the one the store writes.
    func withRawHandle<T>(_ body: (OpaquePointer) throws -> T) throws -> T {
        let openFile = try openFile()
        defer { watchedFile.withLock { watched in if watched != nil { watched = openFile.identity ?? watched } } }
        return try openFile.withRawHandle(body)
    }

    func read<T>(_ body: (any StoreReader) throws -> T) throws -> T {
        try openFile().read(body)
    }

    func write<T>(_ body: (any StoreWriter) throws -> (value: T, commit: Bool)) throws -> T {
        try openFile().write(body)
    }
}
