/// A table, view or other relation of an adopted database that is not an item type, and why.
///
/// Opening a store adopts every table with a usable key; the rest is left alone, logged, and
/// listed by the store's `skippedTables()`:
///
/// ```swift
/// for skipped in try store.skippedTables() {
///     print(skipped.name, skipped.reason)      // "totals", a view
/// }
/// ```
public struct SkippedTable: Sendable, Hashable, CustomStringConvertible {
    /// Why a relation is not an item type.
    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// A view: it has no rows of its own to write.
        case view
        /// A materialized view, which only `REFRESH` fills (PostgreSQL).
        case materializedView
        /// A virtual table (FTS, R-tree, …), whose module decides what it stores (SQLite).
        case virtualTable
        /// A shadow table holding a virtual table's data (SQLite).
        case shadowTable
        /// One of SQLite's own tables (`sqlite_sequence`, `sqlite_stat1`, …).
        case sqliteInternal
        /// A foreign table, whose rows live on another server (PostgreSQL).
        case foreignTable
        /// A partition, whose rows are items of its partitioned table (PostgreSQL).
        case partition
        /// A table other tables inherit from (PostgreSQL's `INHERITS`): its queries would include
        /// their rows, and a delete of its items would delete theirs. The inheriting tables are adopted.
        case inheritedFrom
        /// The table has no key identifiers fit; the text says why.
        case noUsableKey(String)
        /// Its name, or the names of two of its columns, are two spellings of one name that Swift
        /// finds equal (`"é"` as one scalar and as `e` with a combining accent); the text says which.
        case ambiguousName(String)

        /// A readable rendering, for messages and logs.
        public var description: String {
            switch self {
            case .view: "a view"
            case .materializedView: "a materialized view"
            case .virtualTable: "a virtual table"
            case .shadowTable: "a shadow table of a virtual table"
            case .sqliteInternal: "an internal table of SQLite"
            case .foreignTable: "a foreign table"
            case .partition: "a partition of a partitioned table"
            case .inheritedFrom: "other tables inherit from it, and its rows would include theirs"
            case .noUsableKey(let detail): "no usable key: \(detail)"
            case .ambiguousName(let detail): "ambiguous name: \(detail)"
            }
        }
    }

    /// The relation's name.
    public let name: String
    /// Why it is skipped.
    public let reason: Reason

    /// A skipped relation.
    ///
    /// ```swift
    /// let skipped = SkippedTable(name: "totals", reason: .view)
    /// ```
    public init(name: String, reason: Reason) {
        self.name = name
        self.reason = reason
    }

    /// A readable rendering, for messages and logs.
    public var description: String { "\(name) (\(reason))" }
}
