/// An aggregate a store computes over the items a request selects, for
/// ``StoreReader/aggregate(_:of:matching:)``. The semantics are in <doc:Aggregates>.
///
/// ```swift
/// let highest = try reader.aggregate(.maximum, of: "rating", matching: DataStoreRequest(itemType: "Restaurant"))
/// ```
public enum AggregateFunction: String, Sendable, Hashable, CaseIterable {
    /// The value that sorts first (``DataStoreSortDescriptor`` order); `nil` when none counts.
    case minimum
    /// The value that sorts last; `nil` when none counts.
    case maximum
    /// The sum of the numbers: `.int` when every number is an integer and their sum fits in
    /// `Int64`, otherwise the exact sum rounded once to a `.double`; `.int(0)` when there is none.
    case sum
    /// The mean of the numbers as a `.double`; `nil` when there is none.
    case average
}
