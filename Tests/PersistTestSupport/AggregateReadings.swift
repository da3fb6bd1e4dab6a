import Persist

/// The four aggregates of one attribute over one request, read in one block, for tests that
/// compare a store with another.
///
/// ```swift
/// #expect(try AggregateReadings.read("price", over: request, in: sqlite)
///         == AggregateReadings.read("price", over: request, in: memory))
/// ```
public enum AggregateReadings {
    /// The minimum, maximum, sum and average (as a double) of `attribute` over the items `request`
    /// selects in `store`.
    public static func read(_ attribute: String, over request: DataStoreRequest, in store: any DataStore) throws -> [Value?] {
        try store.read { accessor in
            [try accessor.minimum(of: attribute, forRequest: request), try accessor.maximum(of: attribute, forRequest: request),
             try accessor.sum(of: attribute, forRequest: request),
             try accessor.average(of: attribute, forRequest: request).map(Value.double)]
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
