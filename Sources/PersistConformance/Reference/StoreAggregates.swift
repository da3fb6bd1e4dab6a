import Persist

/// Reads a store's aggregates through the public accessor calls, by `AggregateFunction`, for
/// tests that compare them with `ReferenceAggregates` or with another store.
///
/// ```swift
/// let highest = try store.read { accessor in
///     try StoreAggregates.value(.maximum, of: "rating", forRequest: request, in: accessor)
/// }
/// let other = InMemoryDataStore()
/// let difference = try StoreAggregates.difference("rating", over: request, in: store, from: other)
/// ```
public enum StoreAggregates {
    /// `function` of `attribute` over the items `request` selects, as the accessor's
    /// `minimum`, `maximum`, `sum` or `average` (as a double) gives it.
    public static func value(
        _ function: AggregateFunction, of attribute: String, forRequest request: DataStoreRequest,
        in accessor: DataStoreReadAccessor
    ) throws -> Value? {
        switch function {
        case .minimum: return try accessor.minimum(of: attribute, forRequest: request)
        case .maximum: return try accessor.maximum(of: attribute, forRequest: request)
        case .sum: return try accessor.sum(of: attribute, forRequest: request)
        case .average: return try accessor.average(of: attribute, forRequest: request).map(Value.double)
        }
    }

    /// Every aggregate of `attribute` over the items `request` selects in `store`, in the order
    /// of `AggregateFunction.allCases`, read in one block.
    public static func read(_ attribute: String, over request: DataStoreRequest, in store: any DataStore) throws -> [Value?] {
        try store.read { accessor in
            try AggregateFunction.allCases.map { try value($0, of: attribute, forRequest: request, in: accessor) }
        }
    }

    /// How the aggregates of `attribute` over `request` in `store` differ from those in
    /// `reference`, or `nil` when they are the same.
    public static func difference(
        _ attribute: String, over request: DataStoreRequest, in store: any DataStore, from reference: any DataStore
    ) throws -> String? {
        let actual = try read(attribute, over: request, in: store)
        let expected = try read(attribute, over: request, in: reference)
        guard actual != expected else { return nil }
        return "aggregates of \(attribute) over \(request.itemType) filter \(request.filter.map { "\($0)" } ?? "none") "
            + "offset \(request.offset) limit \(request.limit.map(String.init) ?? "none"): "
            + "\(actual), not \(expected)"
    }
}
