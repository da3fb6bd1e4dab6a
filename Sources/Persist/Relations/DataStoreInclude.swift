/// Related items to read with the results of a request, in one query per relation
/// (``DataStoreReadAccessor/items(forRequest:including:)``).
///
/// ```swift
/// let orders = try store.read { accessor in
///     try accessor.items(forRequest: DataStoreRequest(itemType: "Order"),
///                        including: [.referring(via: lineOrder), .related(via: orderCustomer)])
/// }
/// ```
public enum DataStoreInclude: Sendable, Hashable, CustomStringConvertible {
    /// The item each result refers to through the relation, whose item type is the request's.
    case related(via: DataStoreRelation)
    /// The items that refer to each result through the relation, whose related type is the
    /// request's item type.
    case referring(via: DataStoreRelation)

    /// The relation followed.
    public var relation: DataStoreRelation {
        switch self {
        case .related(let relation), .referring(let relation): relation
        }
    }

    /// A readable rendering: `related via Order_customerId_fkey`.
    public var description: String {
        switch self {
        case .related(let relation): "related via \(relation.name)"
        case .referring(let relation): "referring via \(relation.name)"
        }
    }
}
