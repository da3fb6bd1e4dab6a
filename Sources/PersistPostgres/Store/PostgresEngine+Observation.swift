import Persist

/// The listening connection of a store's live queries.
// @unchecked Sendable: used only on the store's serial write queue; the engine's `Locked` only hands it over.
struct ChangeListener: @unchecked Sendable {
    /// The connection, while the store is open and has had live queries.
    var connection: PGConnection?
    /// Whether it is listening now (between `beginWatching…` and `endWatching…`).
    var isListening = false
    /// When the listening connection was lost, while no new one listens yet (the server is
    /// restarting, or down).
    var lostSince: ContinuousClock.Instant?
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
/// one; closing the store closes it. A listening connection that is lost is replaced, at the next
/// polls while the server cannot be reached, for up to the connect timeout.
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
        guard state.isListening else { return false }
        guard let listener = state.connection else { return try listenAgain(lostSince: state.lostSince ?? .now) }
        do {
            return try !listener.pollNotifications().isEmpty
        } catch let error as DataStoreError where PostgresSession.isConnectionLoss(error) || listener.isBroken {
            listener.close()
            let lost = ContinuousClock.now
            changeListener.withLock { $0 = ChangeListener(isListening: true, lostSince: lost) }
            options.logger.debug("the connection listening for other stores' commits was lost: \(error)",
                         metadata: ["store": .string(location)])
            return try listenAgain(lostSince: lost)
        }
    }

    /// Listens on a new connection after the last one was lost (the server restarted or went
    /// down, or the session was terminated). Commits made meanwhile cannot be known, so once it
    /// listens that is a change. While the server cannot be reached, or has no connection slot
    /// left, it is tried again at each poll, up to the connect timeout after the loss; then the
    /// error ends the live queries.
    private func listenAgain(lostSince lost: ContinuousClock.Instant) throws -> Bool {
        do {
            let replacement = try listeningConnection()
            changeListener.withLock { $0 = ChangeListener(connection: replacement, isListening: true) }
            return true
        } catch let error as DataStoreError
                    where (PostgresSession.isConnectionLoss(error) || PostgresSession.isOutOfConnections(error))
                    && ContinuousClock.now - lost < connectPatience {
            options.logger.debug("the server cannot be reached yet (or has no connection slot free) to listen for other stores' commits; trying again: \(error)",
                         metadata: ["store": .string(location)])
            return false
        }
    }

    /// How long live queries wait for a server that went away: the connect timeout.
    private var connectPatience: Duration {
        guard let url = try? url.get() else { return .zero }
        return PGConnection.Options(connectTimeout: options.connectTimeout).connectTimeout(for: url)
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

/// A live query whose query finds no connection slot free, or the server restarting, runs it
/// again a poll interval later, as its listener does; a server away longer than the connect
/// timeout ends it through the listener.
extension PostgresEngine {
    func isTransient(_ error: DataStoreError) -> Bool {
        PostgresSession.isOutOfConnections(error) || PostgresSession.isConnectionLoss(error)
    }
}
