/// One sort key of a ``DataStoreRequest``: an attribute and a direction.
///
/// ```swift
/// var request = DataStoreRequest(itemType: "Restaurant")
/// request.sortDescriptors = [.descending("rating"), .ascending("name")]
/// ```
///
/// Ascending order puts missing and null values first, then booleans, numbers, dates, strings,
/// bytes, arrays and objects; descending order is exactly the reverse. Items that tie on every key
/// are ordered by identifier, ascending, so results are always deterministic
/// (see <doc:PredicateSemantics>).
///
/// The name is prefixed so that it never clashes with Foundation's `SortDescriptor`: a file may
/// import both modules and use either without naming a module.
public struct DataStoreSortDescriptor: Sendable, Hashable {
    /// The attribute to sort by.
    public var key: String
    /// `true` for ascending order.
    public var ascending: Bool

    /// Sorts by `key` in the given direction.
    public init(key: String, ascending: Bool = true) {
        self.key = key
        self.ascending = ascending
    }

    /// Sorts by `key`, smallest first.
    public static func ascending(_ key: String) -> DataStoreSortDescriptor { DataStoreSortDescriptor(key: key, ascending: true) }
    /// Sorts by `key`, largest first.
    public static func descending(_ key: String) -> DataStoreSortDescriptor { DataStoreSortDescriptor(key: key, ascending: false) }
}
