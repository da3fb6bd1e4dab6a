/// What to read: an item type, with an optional filter, sort order, offset and limit.
///
/// The request mirrors JustPersist's `DataStoreRequest` (and Core Data's fetch request):
///
/// ```swift
/// var request = DataStoreRequest(itemType: "Restaurant")
/// request.setFilter(whereAttribute: "city", equalsValue: "Leeds")
/// request.setSort(byKey: "rating", ascending: false)
/// request.offset = 20
/// request.limit = 10
/// let page = try store.read { accessor in try accessor.items(forRequest: request) }
/// ```
///
/// Results are filtered, then sorted by the sort descriptors and finally by identifier, then the
/// first `offset` items are skipped and at most `limit` are returned. Every store gives the same
/// answer for the same request (<doc:PredicateSemantics>).
public struct DataStoreRequest: Sendable, Hashable {
    /// How results are ordered.
    public enum Ordering: Sendable, Hashable {
        /// By the sort descriptors, then by identifier: deterministic on every store (the default).
        case sorted
        /// In whatever order the store finds cheapest; sort descriptors are ignored. Use it to
        /// stream every item (as the migration engine does) without the cost or memory of sorting.
        case unspecified
    }

    /// The item type to read.
    public var itemType: String
    /// Only items for which the predicate is true; all items when `nil`.
    public var filter: DataStorePredicate?
    /// The sort keys, most significant first.
    public var sortDescriptors: [DataStoreSortDescriptor]
    /// How many matching items to skip. Must not be negative.
    public var offset: Int
    /// At most this many items; no limit when `nil`. Must not be negative.
    public var limit: Int?
    /// How results are ordered; ``Ordering/sorted`` unless changed.
    public var ordering: Ordering
    /// Filters through relations, each of which must hold as well as ``filter`` (none unless
    /// set): tracks whose album's artist is AC/DC (see ``RelatedFilter``).
    public var relatedFilters: [RelatedFilter] = []

    /// A request for every item of `itemType`.
    public init(
        itemType: String,
        filter: DataStorePredicate? = nil,
        sortDescriptors: [DataStoreSortDescriptor] = [],
        offset: Int = 0,
        limit: Int? = nil
    ) {
        self.itemType = itemType
        self.filter = filter
        self.sortDescriptors = sortDescriptors
        self.offset = offset
        self.limit = limit
        self.ordering = .sorted
    }

    /// Filters to items whose attribute `name` equals `value` (replacing any previous filter).
    public mutating func setFilter(whereAttribute name: String, equalsValue value: Value) {
        filter = .comparison(attribute: name, .equal, value)
    }

    /// Sorts by the attribute `key` (replacing any previous sort descriptors).
    public mutating func setSort(byKey key: String, ascending: Bool) {
        sortDescriptors = [DataStoreSortDescriptor(key: key, ascending: ascending)]
    }

    /// Whether `item` passes the filter.
    public func matches(_ item: Item) -> Bool {
        filter?.matches(item) ?? true
    }

    /// Whether `lhs` comes before `rhs` in this request's order (sort descriptors, then identifier).
    public func sortsBefore(_ lhs: Item, _ rhs: Item) -> Bool {
        compare(lhs, rhs) < 0
    }

    /// Three-way comparison in this request's order: negative when `lhs` comes first.
    public func compare(_ lhs: Item, _ rhs: Item) -> Int {
        for descriptor in sortDescriptors {
            let order = ValueSemantics.sortOrder(lhs.attributes[descriptor.key], rhs.attributes[descriptor.key])
            if order != 0 { return descriptor.ascending ? order : -order }
        }
        if lhs.id == rhs.id { return 0 }
        return lhs.id < rhs.id ? -1 : 1
    }

    /// Runs the whole request over `items` in memory: filter, order, offset and limit.
    ///
    /// Stores without a query engine of their own (and child stores) use this, so that their
    /// answers are the shared semantics by construction.
    ///
    /// ```swift
    /// let found = request.apply(to: allRestaurants)
    /// ```
    public func apply(to items: some Sequence<Item>) -> [Item] {
        var matching = items.filter(matches)
        if ordering == .sorted {
            if sortDescriptors.isEmpty {
                matching.sort { $0.id < $1.id }
            } else {
                matching.sort(by: sortsBefore)
            }
        }
        return window(matching)
    }

    /// Applies offset and limit to already filtered and ordered items.
    public func window(_ items: [Item]) -> [Item] {
        let start = min(max(offset, 0), items.count)
        var end = items.count
        // Clamp the limit to what is left before adding, so that a limit near Int.max cannot overflow.
        if let limit { end = start + min(max(limit, 0), items.count - start) }
        return Array(items[start..<end])
    }

    /// Checks the request: valid item type and attribute names, no negative offset or limit.
    ///
    /// - Throws: ``DataStoreError/Code/invalidArgument`` naming the problem.
    public func validate() throws {
        try NameRules.validateItemType(itemType)
        if offset < 0 {
            throw DataStoreError.invalidArgument("request offset is \(offset); it must be 0 or more")
        }
        if let limit, limit < 0 {
            throw DataStoreError.invalidArgument("request limit is \(limit); it must be 0 or more, or nil for no limit")
        }
        for name in filter?.attributeNames ?? [] {
            try NameRules.validateAttribute(name, of: itemType)
        }
        for descriptor in sortDescriptors {
            try NameRules.validateAttribute(descriptor.key, of: itemType)
        }
    }
}
