import Persist

/// A connection a ``ReaderPool`` keeps.
package protocol PooledConnection: AnyObject, Sendable {
    /// Closes the connection; it is not used again.
    func close()
}

/// The reader connections of a store: a few are kept open and reused, more are opened when every
/// kept one is busy (so a read never waits for another read, and nested reads cannot deadlock),
/// and closed when handed back beyond the capacity.
///
/// The lock guards only the idle list: connections are opened and closed outside it.
///
/// ```swift
/// let pool = ReaderPool(capacity: 4, location: path, engine: "SQLite") { try SQLiteConnection.open(…) }
/// let connection = try pool.checkout()
/// defer { pool.checkin(connection, reusable: true) }
/// ```
package final class ReaderPool<Connection: PooledConnection>: Sendable {
    private struct State {
        var idle: [Connection] = []
        var isOpen = false
    }

    private let state = Locked(State())
    private let capacity: Int
    private let location: String
    /// The engine's name, for messages: "SQLite", "PostgreSQL".
    private let engine: String
    private let makeConnection: @Sendable () throws -> Connection

    /// - Parameters:
    ///   - capacity: how many idle connections to keep.
    ///   - location: the store's location, for messages.
    ///   - makeConnection: opens one reader connection.
    package init(capacity: Int, location: String, engine: String,
                 makeConnection: @escaping @Sendable () throws -> Connection) {
        self.capacity = max(capacity, 0)
        self.location = location
        self.engine = engine
        self.makeConnection = makeConnection
    }

    /// Lets connections be checked out.
    package func open() {
        state.withLock { $0.isOpen = true }
    }

    /// Takes every idle connection away and returns them, for the caller to close; connections
    /// checked out are closed when they come back.
    package func close() -> [Connection] {
        state.withLock { state in
            state.isOpen = false
            defer { state.idle.removeAll() }
            return state.idle
        }
    }

    /// An idle connection, or a new one.
    package func checkout() throws -> Connection {
        let reused: Connection? = try state.withLock { state in
            guard state.isOpen else {
                throw DataStoreError(.misuse, "the \(engine) store at \(location) is not open; call setup() first",
                                     path: location)
            }
            return state.idle.popLast()
        }
        return try reused ?? makeConnection()
    }

    /// Hands a connection back; it is kept when `reusable`, the pool is open and not full, and
    /// otherwise returned for the caller to close.
    package func checkin(_ connection: Connection, reusable: Bool) -> Connection? {
        state.withLock { state in
            guard reusable, state.isOpen, state.idle.count < capacity else { return connection }
            state.idle.append(connection)
            return nil
        }
    }

    /// The idle connections now, which stay in the pool.
    package var idle: [Connection] {
        state.withLock { $0.idle }
    }
}
