extension DataStoreReadWriteAccessor {
    /// Deletes every item the request selects — filter, sort order, offset and limit mean exactly
    /// what they mean for ``DataStoreReadAccessor/items(forRequest:)`` — and returns how many.
    ///
    /// One `DELETE` statement on an SQL store; on a key-value file the deletions are journaled with the rest of the
    /// block. Mutable items of the deleted items handed out earlier in the block are marked
    /// deleted, so they cannot bring the items back (<doc:SetBasedWrites>).
    ///
    /// ```swift
    /// var request = DataStoreRequest(itemType: "Todo")
    /// request.filter = .attribute("done") == true
    /// let removed = try store.writeSync { accessor in try accessor.deleteItems(forRequest: request) }
    /// ```
    ///
    /// - Throws: ``DataStoreError/Code/invalidArgument`` for an invalid request.
    @discardableResult
    public func deleteItems(forRequest asked: DataStoreRequest) throws -> Int {
        try checkActiveAndFlushPendingChanges()
        let request = try prepared(asked)
        let count: Int
        if try refersToType(request.itemType) {
            count = try deleteApplyingRules(matching: request) {
                try context.locating { try writer.deleteItems(matching: request) }
            }
        } else {
            count = try context.locating { try writer.deleteItems(matching: request) }
        }
        try refreshMutableItems(ofType: request.itemType)
        return count
    }

    /// Sets `values` on every item the request selects (`.null` removes an attribute; the others
    /// keep their values) and returns how many items it selected. Filter, sort order, offset and
    /// limit mean exactly what they mean for ``DataStoreReadAccessor/items(forRequest:)``.
    ///
    /// One `UPDATE` statement on an SQL store; on a key-value file the changes are journaled with the rest of the
    /// block. Mutable items of the updated items handed out earlier in the block show the new
    /// values. Unique indexes are checked for the whole update before anything changes
    /// (<doc:SetBasedWrites>).
    ///
    /// ```swift
    /// var overdue = DataStoreRequest(itemType: "Todo")
    /// overdue.filter = .attribute("due") < .date(Date())
    /// let flagged = try store.writeSync { accessor in
    ///     try accessor.updateItems(forRequest: overdue, setting: ["late": true])
    /// }
    /// ```
    ///
    /// - Throws: ``DataStoreError/Code/invalidArgument`` for an invalid request or attribute name;
    ///   ``DataStoreError/Code/uniqueViolation`` when the update would make items share the values
    ///   of a unique index (nothing is changed); ``DataStoreError/Code/typeMismatch`` when a store
    ///   with typed columns cannot hold a value.
    @discardableResult
    public func updateItems(forRequest asked: DataStoreRequest, setting values: [String: Value]) throws -> Int {
        try checkActiveAndFlushPendingChanges()
        let request = try prepared(asked)
        try context.locating {
            for name in values.keys { try NameRules.validateAttribute(name, of: request.itemType) }
            try NameRules.validate(Item(itemType: request.itemType, id: 0, attributes: values))
            try checkUnique(updating: request, setting: values)
        }
        try noteReferrers(updating: request, setting: values)
        let count = try context.locating { try writer.updateItems(matching: request, setting: values) }
        try refreshMutableItems(ofType: request.itemType)
        return count
    }

    /// Reads the mutable items of `itemType` handed out in this block again, after a set-based
    /// write: a deleted one is marked deleted, a changed one takes the stored values.
    ///
    /// Types are matched as the store matches names: on most stores as Swift strings, so that a
    /// write naming `"Café"` decomposed reaches the items of `"Café"` precomposed; on a store that
    /// keeps the spellings apart, by their bytes.
    func refreshMutableItems(ofType itemType: String) throws {
        for (reference, mutable) in registry.handedOut(ofType: itemType) {
            if let stored = try context.locating({ try writer.item(ofType: reference.itemType, id: reference.id) }) {
                mutable.replace(with: stored)
            } else {
                forget(reference)
            }
        }
    }
}
