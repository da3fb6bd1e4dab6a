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
/// The lock guards only the idle list: connections are opened and closed outside it. The list
/// holds existentials, not `Connection`s, so that checking out and in, once per read block, runs
/// the same code whatever the store's connection type, with no generic code to specialize.
///
/// ```swift
/// let pool = ReaderPool(capacity: 4, location: path, engine: "SQLite") { try SQLiteConnection.open(…) }
/// let connection = try pool.checkout()
/// defer { pool.checkin(connection, reusable: true)?.close() }
/// ```
package final class ReaderPool<Connection: PooledConnection>: Sendable {
    private struct Slots {
        var idle: [any PooledConnection] = []
        var isOpen = false
    }

    private let slots = Locked(Slots())
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
        slots.withLock { $0.isOpen = true }
    }

    /// Takes every idle connection away and returns them, for the caller to close; connections
    /// checked out are closed when they come back.
    package func close() -> [Connection] {
        slots.withLock { slots in
            slots.isOpen = false
            defer { slots.idle.removeAll() }
            return slots.idle
        }.map(Self.typed)
    }

    /// An idle connection, or a new one.
    package func checkout() throws -> Connection {
        let reused = try slots.withLock { slots -> (any PooledConnection)? in
            guard slots.isOpen else {
                throw DataStoreError(.misuse, "the \(engine) store at \(location) is not open; call setup() first",
                                     path: location)
            }
            return slots.idle.popLast()
        }
        if let reused { return Self.typed(reused) }
        return try makeConnection()
    }

    /// Hands a connection back; it is kept when `reusable`, the pool is open and not full, and
    /// otherwise returned for the caller to close.
    package func checkin(_ connection: Connection, reusable: Bool) -> Connection? {
        let kept = slots.withLock { slots in
            guard reusable, slots.isOpen, slots.idle.count < capacity else { return false }
            slots.idle.append(connection)
            return true
        }
        return kept ? nil : connection
    }

    /// The idle connections now, which stay in the pool.
    package var idle: [Connection] {
        slots.withLock { $0.idle }.map(Self.typed)
    }

    /// A connection of the list, which only ever holds this pool's `Connection`s.
    @inline(__always)
    private static func typed(_ connection: any PooledConnection) -> Connection {
        unsafeDowncast(connection, to: Connection.self)
    }
}
