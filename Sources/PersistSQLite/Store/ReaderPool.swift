import Persist

/// The reader connections of a store: a few are kept open and reused, more are opened when every
/// kept one is busy (so a read never waits for another read), and closed when handed back.
///
/// The lock guards only the idle list: connections are opened and closed outside it.
final class ReaderPool: Sendable {
    private struct State {
        var idle: [SQLiteConnection] = []
        var isOpen = false
    }

    private let state = Locked(State())
    private let capacity: Int
    private let makeConnection: @Sendable () throws -> SQLiteConnection
    private let location: String

    /// - Parameters:
    ///   - capacity: how many idle connections to keep.
    ///   - location: the store's location, for messages.
    ///   - makeConnection: opens one reader connection.
    init(capacity: Int, location: String, makeConnection: @escaping @Sendable () throws -> SQLiteConnection) {
        self.capacity = capacity
        self.location = location
        self.makeConnection = makeConnection
    }

    /// Lets connections be checked out.
    func open() {
        state.withLock { $0.isOpen = true }
    }

    /// Closes every idle connection; connections checked out are closed when they come back.
    func close() {
        let connections = state.withLock { state in
            state.isOpen = false
            defer { state.idle.removeAll() }
            return state.idle
        }
        for connection in connections { connection.close() }
    }

    /// An idle connection, or a new one.
    func checkout() throws -> SQLiteConnection {
        let reused: SQLiteConnection? = try state.withLock { state in
            guard state.isOpen else {
                throw DataStoreError(.misuse, "the SQLite store at \(location) is not open; call setup() first",
                                     path: location)
            }
            return state.idle.popLast()
        }
        return try reused ?? makeConnection()
    }

    /// Hands a connection back; it is kept when `reusable`, the pool is open and not full.
    func checkin(_ connection: SQLiteConnection, reusable: Bool) {
        let kept = state.withLock { state in
            guard reusable, state.isOpen, state.idle.count < capacity else { return false }
            state.idle.append(connection)
            return true
        }
        if !kept { connection.close() }
    }
}
