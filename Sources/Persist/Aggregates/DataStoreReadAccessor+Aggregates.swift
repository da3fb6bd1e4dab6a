extension DataStoreReadAccessor {
    /// The smallest value of `attribute` among the items the request selects, in the order of
    /// ``DataStoreSortDescriptor`` (see <doc:Aggregates>); `nil` when none has a value that counts.
    ///
    /// ```swift
    /// let cheapest = try store.read { accessor in
    ///     try accessor.minimum(of: "price", forRequest: DataStoreRequest(itemType: "Dish"))
    /// }
    /// ```
    ///
    /// - Throws: ``DataStoreError/Code/invalidArgument`` for an invalid request or attribute name.
    public func minimum(of attribute: String, forRequest request: DataStoreRequest) throws -> Value? {
        try aggregate(.minimum, of: attribute, request)
    }

    /// The largest value of `attribute` among the items the request selects (see <doc:Aggregates>);
    /// `nil` when none has a value that counts.
    ///
    /// ```swift
    /// let newest = try store.read { accessor in
    ///     try accessor.maximum(of: "updated", forRequest: DataStoreRequest(itemType: "Note"))
    /// }
    /// ```
    ///
    /// - Throws: ``DataStoreError/Code/invalidArgument`` for an invalid request or attribute name.
    public func maximum(of attribute: String, forRequest request: DataStoreRequest) throws -> Value? {
        try aggregate(.maximum, of: attribute, request)
    }

    /// The sum of the numbers `attribute` holds among the items the request selects: `.int` when
    /// every number is an integer and the sum fits in `Int64`, otherwise the exact sum rounded
    /// once to a `.double`; `.int(0)` when there is none (see <doc:Aggregates>).
    ///
    /// ```swift
    /// var request = DataStoreRequest(itemType: "Order")
    /// request.filter = .attribute("paid") == true
    /// let total = try store.read { accessor in try accessor.sum(of: "amount", forRequest: request) }
    /// ```
    ///
    /// - Throws: ``DataStoreError/Code/invalidArgument`` for an invalid request or attribute name.
    public func sum(of attribute: String, forRequest request: DataStoreRequest) throws -> Value {
        try aggregate(.sum, of: attribute, request) ?? .int(0)
    }

    /// The mean of the numbers `attribute` holds among the items the request selects; `nil` when
    /// there is none (see <doc:Aggregates>).
    ///
    /// ```swift
    /// let rating = try store.read { accessor in
    ///     try accessor.average(of: "rating", forRequest: DataStoreRequest(itemType: "Restaurant"))
    /// }
    /// ```
    ///
    /// - Throws: ``DataStoreError/Code/invalidArgument`` for an invalid request or attribute name.
    public func average(of attribute: String, forRequest request: DataStoreRequest) throws -> Double? {
        try aggregate(.average, of: attribute, request)?.doubleValue
    }

    private func aggregate(_ function: AggregateFunction, of attribute: String, _ asked: DataStoreRequest) throws -> Value? {
        try checkActiveAndFlushPendingChanges()
        try context.locating { try NameRules.validateAttribute(attribute, of: asked.itemType) }
        let request = try prepared(asked)
        return try context.locating { try reader.aggregate(function, of: attribute, matching: request) }
    }
}
