import Foundation
import Persist

/// Live queries end when the GDBM file vanishes or is replaced, or when a commit failed half-way.
///
/// No other process can commit to a file this store has open (GDBM's lock lets one writer or many
/// readers in), so every change a live query must see is a write block of this store, which the
/// scheduler reports itself. What is left to watch is the file itself: while live queries exist,
/// the scheduler checks every ``fileWatchInterval`` that the path still names the file the store
/// opened, and ends every live query with `notFound` when it does not. A commit that failed
/// half-way (a full disk) stops the store until it is set up again, which applies the block: every
/// live query ends with that commit's error rather than go on showing a state without it.
extension GDBMEngine: ExternalChangeSource {
    /// How often the file is checked while live queries exist.
    static let fileWatchInterval: Duration = .milliseconds(100)

    var externalChangePollInterval: Duration { Self.fileWatchInterval }

    func beginWatchingExternalChanges() throws {
        let identity = try fileIdentity()
        watchedFile.withLock { $0 = identity }
    }

    func pollExternalChanges() throws -> Bool {
        try current.value?.checkUsable()
        guard let watched = watchedFile.value else { return false }
        guard try fileIdentity() == watched else { throw FileIdentity.replaced(location, file: "the GDBM file") }
        return false
    }

    func endWatchingExternalChanges() {
        watchedFile.withLock { $0 = nil }
    }

    /// The identity of the file at the store's path, made absolute when the store opened it (a
    /// later change of the working directory moves nothing); `notFound` when it is gone.
    private func fileIdentity() throws -> FileIdentity {
        try FileIdentity.of(current.value?.absolutePath ?? location, file: "the GDBM file")
    }
}
