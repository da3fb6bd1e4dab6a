import Persist
import PersistSQL

/// The named prepared statements of one session, by SQL and parameter types, least recently
/// used first out.
///
/// Evicted statements are not deallocated at once: a `DEALLOCATE` that failed inside a
/// transaction would abort it. Their names wait in ``retired`` until the connection is idle.
struct PGStatementCache {
    /// A statement's SQL, compared byte for byte (see ``SQLText``), and its parameter types.
    struct Key: Hashable {
        var sql: String
        var types: [UInt32]

        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.types == rhs.types && SQLText.sameBytes(lhs.sql, rhs.sql)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(types)
            hasher.combine(SQLText(sql))
        }
    }

    private struct Entry {
        var name: String
        var lastUse: UInt64
    }

    let capacity: Int
    private var entries: [Key: Entry] = [:]
    private var clock: UInt64 = 0
    private var counter = 0
    /// Names of evicted statements still to be deallocated on the server.
    private(set) var retired: [String] = []

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    var count: Int { entries.count }

    /// The name of the statement for `key`, marking it used; `nil` when it must be prepared.
    mutating func name(for key: Key) -> String? {
        clock &+= 1
        // One hash of the key (its SQL can be long): find, then update in place.
        guard let index = entries.index(forKey: key) else { return nil }
        entries.values[index].lastUse = clock
        return entries.values[index].name
    }

    /// A new, unused name for `key`'s statement, to record with ``insert(_:name:)`` once prepared.
    mutating func nextName() -> String {
        counter += 1
        return "persist_\(counter)"
    }

    /// Records a prepared statement, evicting the least recently used one when full.
    mutating func insert(_ key: Key, name: String) {
        if entries.count >= capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            entries[oldest.key] = nil
            retired.append(oldest.value.name)
        }
        clock &+= 1
        entries[key] = Entry(name: name, lastUse: clock)
    }

    /// Forgets `key`'s statement (the server no longer has it, or its plan went stale).
    mutating func remove(_ key: Key) {
        if let entry = entries.removeValue(forKey: key) { retired.append(entry.name) }
    }

    /// Forgets `key`'s statement without deallocating it: the server never made it, or lost it.
    mutating func forget(_ key: Key) {
        entries.removeValue(forKey: key)
    }

    /// Retires every statement (the tables they read were altered): each is prepared again on
    /// its next use, and the old ones are deallocated.
    mutating func retireAll() {
        retired.append(contentsOf: entries.values.map(\.name))
        entries.removeAll()
    }

    /// Takes the retired names, for deallocating them.
    mutating func takeRetired() -> [String] {
        defer { retired.removeAll() }
        return retired
    }

    /// Forgets everything: the session that held the statements is gone.
    mutating func removeAll() {
        entries.removeAll()
        retired.removeAll()
    }
}
