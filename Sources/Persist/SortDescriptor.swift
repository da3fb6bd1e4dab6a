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
/// Foundation also declares a type named `SortDescriptor`; in a file that imports both modules,
/// write `Persist.SortDescriptor`, use the alias ``DataStoreSortDescriptor``, or the static
/// helpers ``ascending(_:)`` and ``descending(_:)``.
public struct SortDescriptor: Sendable, Hashable {
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
    public static func ascending(_ key: String) -> SortDescriptor { SortDescriptor(key: key, ascending: true) }
    /// Sorts by `key`, largest first.
    public static func descending(_ key: String) -> SortDescriptor { SortDescriptor(key: key, ascending: false) }
}

/// `SortDescriptor` under a name that does not clash with Foundation's `SortDescriptor`.
public typealias DataStoreSortDescriptor = SortDescriptor
