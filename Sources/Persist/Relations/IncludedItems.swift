/// The results of a request with their related items, read in one query per relation
/// (``DataStoreReadAccessor/items(forRequest:including:)``).
///
/// ```swift
/// let result = try store.read { accessor in
///     try accessor.items(forRequest: DataStoreRequest(itemType: "Order"), including: [.referring(via: lineOrder)])
/// }
/// for order in result.items {
///     print(order.id, result.items(relatedTo: order, via: lineOrder).count, "lines")
/// }
/// ```
public struct IncludedItems: Sendable, Hashable {
    /// The items the request selects, in its order.
    public let items: [Item]
    /// For each `.related` include, the related items by identifier.
    private let related: [DataStoreRelation: [ItemID: Item]]
    /// For each `.referring` include, the referring items (in identifier order) by the identifier
    /// they refer to.
    private let referring: [DataStoreRelation: [ItemID: [Item]]]
    /// Where each `.related` include's referring attributes are held in the results.
    private let shapes: [DataStoreRelation: ReferringShape]

    init(items: [Item], related: [DataStoreRelation: [ItemID: Item]], referring: [DataStoreRelation: [ItemID: [Item]]],
         shapes: [DataStoreRelation: ReferringShape]) {
        self.items = items
        self.related = related
        self.referring = referring
        self.shapes = shapes
    }

    /// The item `item` refers to through `relation`, read with the results; `nil` when it refers
    /// to nothing, or when `relation` was not included as ``DataStoreInclude/related(via:)``.
    ///
    /// ```swift
    /// let customer = result.relatedItem(of: order, via: orderCustomer)
    /// ```
    public func relatedItem(of item: Item, via relation: DataStoreRelation) -> Item? {
        guard case .id(let id) = relation.referredID(in: item, shape: shapes[relation] ?? .attributes) else { return nil }
        return related[relation]?[id]
    }

    /// The items that refer to `item` through `relation`, in identifier order, read with the
    /// results; empty when none does, or when `relation` was not included as
    /// ``DataStoreInclude/referring(via:)``.
    ///
    /// ```swift
    /// let lines = result.items(relatedTo: order, via: lineOrder)
    /// ```
    public func items(relatedTo item: Item, via relation: DataStoreRelation) -> [Item] {
        referring[relation]?[item.id] ?? []
    }

    /// The entity `item` refers to through `relation`, decoded as `type`; `nil` as for
    /// ``relatedItem(of:via:)``.
    ///
    /// ```swift
    /// let customer = try result.related(Customer.self, of: order, via: orderCustomer)
    /// ```
    public func related<R: DataStoreEntity>(_ type: R.Type, of item: Item, via relation: DataStoreRelation) throws -> R? {
        try relatedItem(of: item, via: relation).map(R.init(item:))
    }

    /// The entities that refer to `item` through `relation`, decoded as `type`.
    ///
    /// ```swift
    /// let lines = try result.referring(OrderLine.self, to: order, via: lineOrder)
    /// ```
    public func referring<E: DataStoreEntity>(_ type: E.Type, to item: Item, via relation: DataStoreRelation) throws -> [E] {
        try items(relatedTo: item, via: relation).map(E.init(item:))
    }
}
