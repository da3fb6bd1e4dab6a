/// The default implementations of the optional ``StoreReader`` operations, built on
/// `forEachItem(matching:_:)`. They are what every store answers; an engine's override must give
/// exactly the same results.
extension StoreReader {
    /// Folds the selected items with the shared aggregate semantics (<doc:Aggregates>).
    ///
    /// ```swift
    /// let best = try reader.aggregate(.maximum, of: "rating", matching: DataStoreRequest(itemType: "Restaurant"))
    /// ```
    public func aggregate(_ function: AggregateFunction, of attribute: String, matching request: DataStoreRequest) throws -> Value? {
        try foldAggregate(function, of: attribute, matching: request)
    }

    /// Folds the attribute's values of the items `forEachItem` selects: the default aggregate,
    /// also for a reader that overrides ``aggregate(_:of:matching:)`` only in some cases.
    func foldAggregate(_ function: AggregateFunction, of attribute: String, matching request: DataStoreRequest) throws -> Value? {
        var accumulator = AggregateAccumulator(function)
        try forEachItem(matching: request) { item in
            accumulator.add(item.attributes[attribute])
            return true
        }
        return accumulator.result
    }

    /// Looks at the identifier of every item of the type.
    ///
    /// ```swift
    /// let largest = try reader.largestIntegerID(ofType: "Todo")   // nil when there is none
    /// ```
    public func largestIntegerID(ofType itemType: String) throws -> Int64? {
        var request = DataStoreRequest(itemType: itemType)
        request.ordering = .unspecified
        var largest: Int64?
        try forEachItem(matching: request) { item in
            if case .int(let id) = item.id, largest.map({ id > $0 }) ?? true { largest = id }
            return true
        }
        return largest
    }

    /// ``largestIntegerID(ofType:)``: the engine remembers no identifier its items no longer hold.
    ///
    /// ```swift
    /// let floor = try reader.integerIDFloor(ofType: "Todo")
    /// ```
    public func integerIDFloor(ofType itemType: String) throws -> Int64? {
        try largestIntegerID(ofType: itemType)
    }

    /// `nil`: the engine keeps no index catalog, so the store's scheduler keeps the declarations.
    public func indexes(ofType itemType: String) throws -> [DataStoreIndex]? {
        nil
    }

    /// `nil`: the engine keeps no relation catalog, so the store's scheduler keeps the declarations.
    public func relations() throws -> [DataStoreRelation]? {
        nil
    }

    /// `nil`: the identifiers are held in no named column.
    public func keyAttributes(ofType itemType: String) throws -> [String]? {
        nil
    }

    /// Reads each identifier with ``item(ofType:id:)``.
    ///
    /// ```swift
    /// let albums = try reader.items(ofType: "Album", ids: [1, 2])
    /// ```
    public func items(ofType itemType: String, ids: [ItemID]) throws -> [Item] {
        try ids.compactMap { try item(ofType: itemType, id: $0) }
    }

    /// `false`: type names compare as Swift strings.
    public var comparesTypeNamesByBytes: Bool { false }

    /// `nil`: migrations read items through `forEachItem(matching:_:)`.
    public var rowStreaming: (any RowStreamingReader)? { nil }

    /// `nil`: a migration's target makes its tables from the items.
    public var schemaDescribing: (any SchemaDescribingReader)? { nil }

    /// `nil`: typed reads decode entities from items.
    public var entityRows: (any EntityRowReading)? { nil }
}
