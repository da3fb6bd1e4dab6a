/// A table or view of an adopted database that is not an item type, and why.
///
/// Opening a database adopts every table with a single-column primary key or a rowid; the rest is
/// left alone, logged at info level, and listed by `SQLiteDataStore.skippedTables()`:
///
/// ```swift
/// for skipped in try store.skippedTables() {
///     print(skipped.name, skipped.reason)      // "totals", view
/// }
/// ```
public struct SkippedTable: Sendable, Hashable, CustomStringConvertible {
    /// Why a table is not an item type.
    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// A view: it has no rows of its own to write.
        case view
        /// A virtual table (FTS, R-tree, …), whose module decides what it stores.
        case virtualTable
        /// A shadow table holding a virtual table's data.
        case shadowTable
        /// One of SQLite's own tables (`sqlite_sequence`, `sqlite_stat1`, …).
        case sqliteInternal
        /// The table has neither a usable single-column primary key nor a rowid; the text says why.
        case noUsableKey(String)
        /// Its name, or the names of two of its columns, are two spellings of one name that Swift
        /// finds equal (`"é"` as one scalar and as `e` with a combining accent); the text says which.
        case ambiguousName(String)

        /// A readable rendering, for messages and logs.
        public var description: String {
            switch self {
            case .view: "a view"
            case .virtualTable: "a virtual table"
            case .shadowTable: "a shadow table of a virtual table"
            case .sqliteInternal: "an internal table of SQLite"
            case .noUsableKey(let detail): "no usable key: \(detail)"
            case .ambiguousName(let detail): "ambiguous name: \(detail)"
            }
        }
    }

    /// The table's name.
    public let name: String
    /// Why it is skipped.
    public let reason: Reason

    /// A readable rendering, for messages and logs.
    public var description: String { "\(name) (\(reason))" }
}
