/// Checks writes against unique indexes with queries, for engines that do not refuse violating
/// writes themselves (``StoreWriter/enforcesUniqueIndexes`` is `false`): the scheduler's catalog
/// and child stores.
package enum UniqueIndexes {
    /// The request selecting the items whose values for `index` equal `values`.
    package static func request(_ index: DataStoreIndex, equalTo values: [Value]) -> DataStoreRequest {
        var filter: DataStorePredicate?
        for (name, value) in zip(index.attributes, values) {
            let term = DataStorePredicate.comparison(attribute: name, .equal, value)
            filter = filter.map { $0 && term } ?? term
        }
        var request = DataStoreRequest(itemType: index.itemType, filter: filter)
        request.ordering = .unspecified
        return request
    }

    /// The values `item` holds for the index's attributes, or `nil` when it lacks one (it is then
    /// not constrained by the index).
    package static func values(of item: Item, for index: DataStoreIndex) -> [Value]? {
        var values: [Value] = []
        for name in index.attributes {
            guard let value = item.attributes[name], !value.isNull else { return nil }
            values.append(value)
        }
        return values
    }

    /// An item other than those in `excluded` that holds `values` for the index, or `nil`.
    package static func holder(of values: [Value], for index: DataStoreIndex, in reader: any StoreReader,
                               excluding excluded: Set<ItemID>) throws -> ItemID? {
        var holder: ItemID?
        try reader.forEachItem(matching: request(index, equalTo: values)) { other in
            guard excluded.contains(other.id) else {
                holder = other.id
                return false
            }
            return true
        }
        return holder
    }

    /// The error for the first pair that would share the index's values after an update: two of
    /// the `updated` items, or one of them and an item outside `selected`; `nil` when there is none.
    package static func conflict(among updated: [Item], selected: Set<ItemID>, for index: DataStoreIndex,
                                 in reader: any StoreReader) throws -> DataStoreError? {
        var first: [[UInt8]: ItemID] = [:]
        for item in updated {
            guard let tuple = values(of: item, for: index) else { continue }
            let key = IndexKey.encode(tuple)
            var other = first[key]
            if other == nil { other = try holder(of: tuple, for: index, in: reader, excluding: selected) }
            if let other {
                return violation(index, [item.reference, ItemReference(itemType: item.itemType, id: other)], values: tuple)
            }
            first[key] = item.id
        }
        return nil
    }

    /// The first group of items that share values for the index, or `nil` when there is none.
    package static func duplicates(for index: DataStoreIndex, in reader: any StoreReader) throws -> [ItemReference]? {
        var request = DataStoreRequest(itemType: index.itemType)
        request.ordering = .unspecified
        var holders: [[UInt8]: [ItemID]] = [:]
        try reader.forEachItem(matching: request) { item in
            if let key = IndexKey.key(of: item, attributes: index.attributes) { holders[key, default: []].append(item.id) }
            return true
        }
        let shared = holders.values.filter { $0.count > 1 }.map { $0.sorted() }.min { $0[0] < $1[0] }
        return shared.map { $0.map { ItemReference(itemType: index.itemType, id: $0) } }
    }

    /// The error for items that would share (or share) the values of a unique index.
    package static func violation(_ index: DataStoreIndex, _ items: [ItemReference], values: [Value]? = nil) -> DataStoreError {
        let listed = items.prefix(10).map(\.description).joined(separator: ", ")
        let shown = values.map { values in
            " (" + zip(index.attributes, values).map { "\($0): \($1)" }.joined(separator: ", ") + ")"
        } ?? ""
        return DataStoreError(
            .uniqueViolation,
            "\(listed)\(items.count > 10 ? ", …" : "") would share the values of the \(index)\(shown); "
                + "nothing of the write was stored. Give the item other values, or remove the other item first",
            items: items)
    }

    /// `refusal` (a ``violation(_:_:values:)`` or ``existingDuplicates(_:_:)``) for a write or
    /// declaration an engine's own unique index refused: the same message as on every other
    /// store, located at the store, with the engine's code and message.
    ///
    /// ```swift
    /// throw UniqueIndexes.reported(UniqueIndexes.violation(index, items, values: values), by: engineError, at: path)
    /// ```
    package static func reported(_ refusal: DataStoreError, by engineError: DataStoreError, at location: String) -> DataStoreError {
        var reported = refusal
        reported.path = location
        reported.message += " (store \(location))"
        reported.engineCode = engineError.engineCode
        reported.engineMessage = engineError.engineMessage
        return reported
    }

    /// The error for declaring a unique index over items that already share values.
    package static func existingDuplicates(_ index: DataStoreIndex, _ items: [ItemReference]) -> DataStoreError {
        let listed = items.prefix(10).map(\.description).joined(separator: ", ")
        return DataStoreError(
            .uniqueViolation,
            "cannot declare the \(index): \(listed)\(items.count > 10 ? ", …" : "") already share its values; "
                + "nothing was declared. Change or remove the duplicates first",
            items: items)
    }
}
