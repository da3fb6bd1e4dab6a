import Persist

/// The listening connection of a store's live queries.
// @unchecked Sendable: used only on the store's serial write queue; the engine's `Locked` only hands it over.
struct ChangeListener: @unchecked Sendable {
    /// The connection, while the store is open and has had live queries.
    var connection: PGConnection?
    /// Whether it is listening now (between `beginWatching…` and `endWatching…`).
    var isListening = false
}

/// Live queries see commits of other Persist stores and processes on the same schema through
/// `LISTEN` / `NOTIFY`: every committing write block runs `pg_notify` on the schema's channel in
/// its transaction (PostgreSQL delivers it at commit, never for a rollback), and while the store
/// has live queries a dedicated connection listens on that channel. Each poll reads what arrived
/// without blocking (`PQconsumeInput`, `PQnotifies`), so another store's commit is seen at most
/// one poll interval (``PostgresDataStore/Options/changePollInterval``) after it, plus the time to
/// finish a write block running then. Raw SQL that does not notify the channel (legacy code, the
/// escape hatch) is not seen until the next Persist commit. Between live queries the connection
/// stops listening (`UNLISTEN`, so the server queues nothing for it) and is kept for the next
/// one; closing the store closes it.
extension PostgresEngine: ExternalChangeSource {
    var externalChangePollInterval: Duration { options.changePollInterval }

    func beginWatchingExternalChanges() throws {
        let kept = changeListener.withLock { state in
            defer { state.connection = nil }
            return state.connection
        }
        let connection: PGConnection
        if let kept, !kept.isBroken, (try? kept.listen(changeChannel)) != nil {
            connection = kept
        } else {
            kept?.close()
            connection = try listeningConnection()
        }
        changeListener.withLock { $0 = ChangeListener(connection: connection, isListening: true) }
    }

    func pollExternalChanges() throws -> Bool {
        let state = changeListener.value
        guard state.isListening, let listener = state.connection else { return false }
        do {
            return try !listener.pollNotifications().isEmpty
        } catch let error as DataStoreError where PostgresSession.isConnectionLoss(error) || listener.isBroken {
            // The server went away: listen again on a new connection. Commits made meanwhile
            // cannot be known, so report a change; a server still away ends the live queries.
            listener.close()
            changeListener.withLock { $0 = ChangeListener() }
            let replacement = try listeningConnection()
            changeListener.withLock { $0 = ChangeListener(connection: replacement, isListening: true) }
            return true
        }
    }

    func endWatchingExternalChanges() {
        let connection = changeListener.withLock { state in
            defer { state = ChangeListener() }
            return state.connection
        }
        guard let connection else { return }
        // Keep it for the next live query only while the store is open and it stopped listening.
        if isOpen, !connection.isBroken, (try? connection.unlisten(changeChannel)) != nil {
            changeListener.withLock { $0.connection = connection }
        } else {
            connection.close()
        }
    }

    /// Closes the listening connection, when the store closes.
    func closeChangeListener() {
        let connection = changeListener.withLock { state in
            defer { state = ChangeListener() }
            return state.connection
        }
        connection?.close()
    }

    /// A new connection listening on the schema's channel.
    private func listeningConnection() throws -> PGConnection {
        let connection = try PGConnection.connect(to: try url.get(), options: PGConnection.Options(
            connectTimeout: options.connectTimeout, statementCacheCapacity: 8, logger: options.logger))
        do {
            try connection.listen(changeChannel)
        } catch {
            connection.close()
            throw error
        }
        return connection
    }
}
