/// A table, view or other relation in the store's schema that is not an item type, and why.
///
/// Opening a store adopts every table with a single-column primary key of a usable type; the rest
/// is left alone, logged at debug level, and listed by `PostgresDataStore.skippedTables()`:
///
/// ```swift
/// for skipped in try store.skippedTables() {
///     print(skipped.name, skipped.reason)      // "order_lines", no usable key: its primary key has 2 columns
/// }
/// ```
public struct PostgresSkippedTable: Sendable, Hashable, CustomStringConvertible {
    /// Why a relation is not an item type.
    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// A view: it has no rows of its own to write.
        case view
        /// A materialized view, which only `REFRESH` fills.
        case materializedView
        /// A foreign table, whose rows live on another server.
        case foreignTable
        /// A partition, whose rows are items of its partitioned table.
        case partition
        /// A table other tables inherit from (`INHERITS`): its queries would include their rows,
        /// and a delete of its items would delete theirs. The inheriting tables are adopted.
        case inheritedFrom
        /// The table has no single-column primary key of a type identifiers fit; the text says why.
        case noUsableKey(String)
        /// Its name, or the names of two of its columns, are two spellings of one name that Swift
        /// finds equal (`"é"` as one scalar and as `e` with a combining accent); the text says which.
        case ambiguousName(String)

        /// A readable rendering, for messages and logs.
        public var description: String {
            switch self {
            case .view: "a view"
            case .materializedView: "a materialized view"
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

    /// A readable rendering, for messages and logs.
    public var description: String { "\(name) (\(reason))" }
}
