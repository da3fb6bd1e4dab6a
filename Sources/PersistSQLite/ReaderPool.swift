import Foundation
import Persist

/// The reader connections of a store: a few are kept open and reused, more are opened when every
/// kept one is busy (so a read never waits for another read), and closed when handed back.
final class ReaderPool: @unchecked Sendable {
    // @unchecked Sendable: `idle` and `isOpen` are only read or written while `lock` is held, and a
    // connection is used by one thread at a time: the one that checked it out.
    private let lock = NSLock()
    private var idle: [SQLiteConnection] = []
    private var isOpen = false
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
        lock.withLock { isOpen = true }
    }

    /// Closes every idle connection; connections checked out are closed when they come back.
    func close() {
        let connections = lock.withLock {
            isOpen = false
            defer { idle.removeAll() }
            return idle
        }
        for connection in connections { connection.close() }
    }

    /// An idle connection, or a new one.
    func checkout() throws -> SQLiteConnection {
        let reused: SQLiteConnection? = try lock.withLock {
            guard isOpen else {
                throw DataStoreError(.misuse, "the SQLite store at \(location) is not open; call setup() first",
                                     path: location)
            }
            return idle.popLast()
        }
        return try reused ?? makeConnection()
    }

    /// Hands a connection back; it is kept when `reusable`, the pool is open and not full.
    func checkin(_ connection: SQLiteConnection, reusable: Bool) {
        let kept = lock.withLock {
            guard reusable, isOpen, idle.count < capacity else { return false }
            idle.append(connection)
            return true
        }
        if !kept { connection.close() }
    }
}
