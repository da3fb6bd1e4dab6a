import Foundation
import Persist

/// What a store watching for other processes' commits compares against.
struct SQLiteChangeWatch: Sendable {
    /// The writer connection's `PRAGMA data_version` at the last poll that could read it: it
    /// changes exactly when another connection commits. `nil` until one could.
    var dataVersion: Int64?
    /// The database file, to notice it was removed or replaced.
    let file: FileIdentity
}

/// In a rollback-journal file (a read-only store of another program's database, or one that could
/// not switch to WAL) another connection's write locks out even `PRAGMA data_version`. A poll that
/// finds the lock held past the busy timeout knows nothing yet, and the live queries go on: the
/// next poll that gets in compares the version, which the commit changed.
extension SQLiteEngine: ExternalChangeSource {
    var externalChangePollInterval: Duration { options.changePollInterval }

    func beginWatchingExternalChanges() throws {
        let file = try fileIdentity()
        let version = try dataVersion()
        changeWatch.withLock { $0 = SQLiteChangeWatch(dataVersion: version, file: file) }
    }

    func pollExternalChanges() throws -> Bool {
        guard let watch = changeWatch.value else { return false }
        guard try fileIdentity() == watch.file else { throw FileIdentity.replaced(location, file: "the SQLite database") }
        guard let version = try dataVersion(), version != watch.dataVersion else { return false }
        changeWatch.withLock { $0?.dataVersion = version }
        // A first version read after the watch began may follow a commit: that is a change too.
        return true
    }

    /// The writer connection's `PRAGMA data_version`; `nil` while another connection holds the
    /// database locked.
    private func dataVersion() throws -> Int64? {
        do {
            return try writerConnection().integer("PRAGMA data_version", operation: "Watching for changes")
        } catch let error as DataStoreError where error.code == .locked {
            options.logger.debug("another connection holds the database locked; looking for its commit at the next poll: \(error)",
                                 metadata: ["store": .string(location)])
            return nil
        }
    }

    func endWatchingExternalChanges() {
        changeWatch.withLock { $0 = nil }
    }

    /// The identity of the database file, at the path the store resolved when it opened it (a
    /// later change of the working directory moves nothing); `notFound` when it is gone.
    private func fileIdentity() throws -> FileIdentity {
        try FileIdentity.of(openedFile.value?.path ?? location, file: "the SQLite database")
    }
}
