import CGDBM
import Foundation
import Persist
import PersistGDBM

/// The "during" and "after": the same file opened with the raw layout, so every key/value pair is
/// an item of type "Session" whose identifier is the key's bytes and whose "value" attribute holds
/// the value's bytes. Nothing in the file changes format, so legacy code can keep using it.
final class SessionStore {
    let store: GDBMDataStore

    init(path: String) throws {
        store = GDBMDataStore(path: path, options: .init(layout: .raw(itemType: "Session", attribute: "value")))
        do {
            try store.setup()
        } catch let error as DataStoreError where error.code == .corrupt {
            let report = try GDBMDataStore.recover(path: path)
            print("recovered \(report.recoveredKeys) records; original kept at \(report.backupPath ?? "-")")
            try store.setup()
        }
    }

    // Moved: a write block instead of gdbm_store.
    func start(token: String, user: String) throws {
        try store.writeSync { accessor in
            try accessor.save(Item(itemType: "Session", id: .bytes(Array(token.utf8)),
                                   attributes: ["value": .bytes(Array(user.utf8))]))
        }
    }

    // Moved: a read block instead of gdbm_fetch.
    func user(for token: String) throws -> String? {
        try store.read { accessor in
            try accessor.item(ofType: "Session", id: .bytes(Array(token.utf8)))?["value"]?.bytesValue
        }.map { String(decoding: $0, as: UTF8.self) }
    }

    // Not moved yet: the legacy gdbm_delete, run on the store's own handle.
    func end(token: String) throws {
        try store.withRawHandle { handle in
            var key = Array(token.utf8)
            _ = key.withUnsafeMutableBytes { gdbm_delete(handle, LegacySessions.datum($0)) }
        }
    }

    // Moved: what used to be a gdbm_firstkey/gdbm_nextkey loop.
    func activeCount() throws -> Int {
        try store.read { accessor in try accessor.countItems(forRequest: DataStoreRequest(itemType: "Session")) }
    }
}
