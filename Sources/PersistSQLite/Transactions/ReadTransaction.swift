internal import CSQLite

/// The transaction of one read block on a reader connection.
///
/// SQLite opens an implicit read transaction when a statement starts reading, and ends it when the
/// last active statement finishes; a statement left on a row holds it, and every statement run
/// meanwhile reads the same snapshot. A block *pins* its transaction with the anchor, `PRAGMA
/// schema_version` left on its row, which also reads the schema version to check the cached schema
/// against.
///
/// A block whose first read is a lookup by identifier skips the anchor while it can: the lookup
/// opens the transaction and, left on its row, holds it. Its schema is checked with SQLite's data
/// version instead, which changes whenever the connection finds the file changed as a transaction
/// starts: while it is the one this connection last pinned a transaction at, nothing changed, the
/// schema included. The block pins when it runs anything else (the anchor joins the lookup's
/// transaction before the lookup lets it go), when the data version moved, and when the lookup
/// found nothing (a statement that ran to its end has ended its transaction).
final class ReadTransaction {
    /// What a lookup that begins the transaction found.
    enum Lookup {
        /// The lookup is on its row, read against the block's starting schema; it holds the
        /// transaction.
        case row(SQLiteStatement)
        /// No such row in the pinned transaction, whose schema is the starting one.
        case absent
        /// The lookup has to run again in the pinned transaction (see ``pinnedSchema()``).
        case again
    }

    private let connection: SQLiteConnection
    private let schemas: SQLiteSchemaCache
    /// The version of the schema the block started with.
    private var startingVersion: Int64?
    /// `PRAGMA schema_version` on its row, once pinned.
    private var anchor: SQLiteStatement?
    /// The lookup that began the transaction, on its row until the block pins or ends.
    private var lookup: SQLiteStatement?
    /// Whether the lookup's row is being read, so that pinning meanwhile leaves it be.
    private var isReadingLookup = false
    /// The schema version read by the anchor.
    private var pinnedVersion: Int64?
    /// The schema of ``pinnedVersion`` when it is not the starting one.
    private var replacement: DatabaseSchema?
    /// Whether ``replacement`` is known (see ``pinnedSchema()``).
    private var isSettled = false

    /// - Parameter schemas: the store's schemas, which a version's schema is read from or into.
    init(connection: SQLiteConnection, schemas: SQLiteSchemaCache) {
        self.connection = connection
        self.schemas = schemas
    }

    /// The schema the block starts with: the one this connection last pinned a transaction at (to
    /// be checked by the block's first read), or else the one read by pinning now.
    func startingSchema() throws -> DatabaseSchema {
        if let check = connection.checkedSchema {
            startingVersion = check.version
            return check.schema
        }
        let version = try pin()
        let schema = try schemas.schema(on: connection, version: version)
        startingVersion = version
        try connection.noteCheck(schema, version: version)
        isSettled = true
        return schema
    }

    /// Whether the block's next read may be a lookup that begins the transaction.
    var canBeginWithLookup: Bool {
        pinnedVersion == nil && lookup == nil
    }

    /// Runs `sql`, a select by key, as the transaction's first statement.
    func begin(
        withLookup sql: String, _ key: (value: SQLBinding, storageClass: String?), operation: @autoclosure () -> String
    ) throws -> Lookup {
        let statement = try connection.hold(sql)
        lookup = statement
        try statement.bind(key.value, at: 1)
        if let storageClass = key.storageClass { try statement.bind(.text(storageClass), at: 2) }
        if try statement.step(operation()) {
            return try connection.dataVersion() == connection.checkedDataVersion ? .row(statement) : .again
        }
        // Run to its end, the lookup ended its transaction: nothing is held.
        let seen = try connection.dataVersion()
        lookup = nil
        connection.release(statement)
        guard seen == connection.checkedDataVersion, try pinnedSchema() == nil else { return .again }
        // Pinned a new transaction: the answer stands when the file is as the lookup read it.
        return try connection.dataVersion() == seen ? .absent : .again
    }

    /// Calls `body` with the lookup's row being read; pinning meanwhile lets the lookup go after.
    func readingLookup<T>(_ body: () throws -> T) rethrows -> T {
        isReadingLookup = true
        defer {
            isReadingLookup = false
            if pinnedVersion != nil { releaseLookup() }
        }
        return try body()
    }

    /// Pins the transaction; the schema to read with from then on when it is not the block's
    /// starting one (the same answer every time).
    func pinnedSchema() throws -> DatabaseSchema? {
        if !isSettled {
            // Settled only once the schema is in hand: a block that caught a failure to load it
            // and reads on tries again, never with the starting schema.
            let version = try pin()
            if version == startingVersion {
                try connection.noteCheckUnchanged()
            } else {
                let schema = try schemas.schema(on: connection, version: version)
                replacement = schema
                try connection.noteCheck(schema, version: version)
            }
            isSettled = true
        }
        return replacement
    }

    /// Starts the anchor (joining the lookup's transaction, if any), then lets the lookup go.
    private func pin() throws -> Int64 {
        if let pinnedVersion { return pinnedVersion }
        let anchor = try connection.hold("PRAGMA schema_version")
        do {
            guard try anchor.step("Starting a read transaction") else {
                throw connection.failure(SQLITE_INTERNAL, "Starting a read transaction")
            }
        } catch {
            // Handed back at once, so that a block that catches this and reads on starts afresh.
            connection.release(anchor)
            throw error
        }
        self.anchor = anchor
        let version = anchor.int64(0)
        pinnedVersion = version
        if !isReadingLookup { releaseLookup() }
        return version
    }

    private func releaseLookup() {
        if let lookup {
            self.lookup = nil
            connection.release(lookup)
        }
    }

    /// Lets every statement go, which ends the transaction.
    func end() {
        releaseLookup()
        if let anchor {
            self.anchor = nil
            connection.release(anchor)
        }
    }
}
