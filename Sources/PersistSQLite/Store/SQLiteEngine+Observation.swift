import Foundation
import Persist

/// What a store watching for other processes' commits compares against.
struct SQLiteChangeWatch: Sendable {
    /// The writer connection's `PRAGMA data_version` at the last poll: it changes exactly when
    /// another connection commits.
    var dataVersion: Int64
    /// The database file, to notice it was removed or replaced.
    let file: FileIdentity
}

extension SQLiteEngine: ExternalChangeSource {
    var externalChangePollInterval: Duration { options.changePollInterval }

    func beginWatchingExternalChanges() throws {
        let file = try fileIdentity()
        let version = try writerConnection().integer("PRAGMA data_version", operation: "Watching for changes")
        changeWatch.withLock { $0 = SQLiteChangeWatch(dataVersion: version, file: file) }
    }

    func pollExternalChanges() throws -> Bool {
        guard let watch = changeWatch.value else { return false }
        guard try fileIdentity() == watch.file else { throw FileIdentity.replaced(location, file: "the SQLite database") }
        let version = try writerConnection().integer("PRAGMA data_version", operation: "Watching for changes")
        guard version != watch.dataVersion else { return false }
        changeWatch.withLock { $0?.dataVersion = version }
        return true
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
