/// One change recorded in a GDBM store's journal: a key/value pair to store or a key to delete.
///
/// ```swift
/// let entries = try GDBMStorageFormat.decodeJournal(bytes)
/// for case .store(let key, let value) in entries { print(key.count, value.count) }
/// ```
public enum GDBMJournalEntry: Sendable, Hashable {
    /// Store `value` under `key`, replacing any value there.
    case store(key: [UInt8], value: [UInt8])
    /// Delete `key` (nothing happens when it is absent).
    case delete(key: [UInt8])

    /// The key the entry changes.
    public var key: [UInt8] {
        switch self {
        case .store(let key, _), .delete(let key): key
        }
    }
}
