internal import HashTreeCollections

/// Reads the parent's snapshot overlaid with a child's changes, and records new changes.
///
/// Results follow the shared request semantics exactly: the parent's stream (in the parent's own
/// order, which is the request's order) is merged with the child's matching items sorted by the
/// same comparison, and offset and limit apply to the merged stream.
final class ChildOverlay: StoreWriter {
    private let parent: DataStoreReadAccessor
    private(set) var changes: ChildChanges
    /// Indexes declared in the child and not merged yet.
    private(set) var declaredIndexes: [DataStoreIndex]
    /// Relations declared in the child and not merged yet.
    private(set) var declaredRelations: [DataStoreRelation]
    /// Whether the parent compares type names by their bytes; the child then does too,
    /// and so do its own children.
    let comparesTypeNamesByBytes: Bool
    /// Where a write block notes the integer identifiers it stores items under (`nil` for reading).
    private let reservations: IDReservations?

    init(parent: DataStoreReadAccessor, changes: ChildChanges, declaredIndexes: [DataStoreIndex],
         declaredRelations: [DataStoreRelation], reservations: IDReservations? = nil) {
        self.parent = parent
        self.changes = changes
        self.declaredIndexes = declaredIndexes
        self.declaredRelations = declaredRelations
        self.reservations = reservations
        comparesTypeNamesByBytes = parent.reader.comparesTypeNamesByBytes
    }

    /// The key of `itemType`'s changes.
    private func key(_ itemType: String) -> TypeNameKey {
        TypeNameKey(name: itemType, byBytes: comparesTypeNamesByBytes)
    }

    private struct StopStreaming: Error {}

    // MARK: Reading

    func item(ofType itemType: String, id: ItemID) throws -> Item? {
        if let change = changes[key(itemType)]?[id] { return change.item }
        return try parent.item(ofType: itemType, id: id)
    }

    func forEachItem(matching request: DataStoreRequest, _ body: (Item) throws -> Bool) throws {
        guard let local = changes[key(request.itemType)], !local.isEmpty else {
            try streamParent(request, body)
            return
        }
        var own = local.values.compactMap(\.item).filter(request.matches)
        let sorted = request.ordering == .sorted
        if sorted { own.sort(by: request.sortsBefore) }

        var skip = request.offset
        var remaining = request.limit ?? Int.max
        guard remaining > 0 else { return }
        /// Emits one item of the merged stream; `false` once the caller wants no more.
        func emit(_ item: Item) throws -> Bool {
            if skip > 0 {
                skip -= 1
                return true
            }
            remaining -= 1
            return try body(item) && remaining > 0
        }

        var whole = request
        whole.offset = 0
        whole.limit = nil
        var next = 0
        var stopped = false
        try streamParent(whole) { item in
            if local[item.id] != nil { return true }
            while sorted, next < own.count, request.compare(own[next], item) < 0 {
                next += 1
                guard try emit(own[next - 1]) else {
                    stopped = true
                    return false
                }
            }
            guard try emit(item) else {
                stopped = true
                return false
            }
            return true
        }
        while !stopped, next < own.count {
            next += 1
            guard try emit(own[next - 1]) else { return }
        }
    }

    /// Streams the parent's items for `request`; `body` returns `false` to stop.
    private func streamParent(_ request: DataStoreRequest, _ body: (Item) throws -> Bool) throws {
        do {
            try parent.forEachItem(forRequest: request) { item in
                guard try body(item) else { throw StopStreaming() }
            }
        } catch is StopStreaming {
            return
        }
    }

    func countItems(matching request: DataStoreRequest) throws -> Int {
        guard let local = changes[key(request.itemType)], !local.isEmpty else {
            return try parent.countItems(forRequest: request)
        }
        var whole = request
        whole.offset = 0
        whole.limit = nil
        var total = try parent.countItems(forRequest: whole)
        for (id, change) in local {
            if let shadowed = try parent.item(ofType: request.itemType, id: id), request.matches(shadowed) {
                total -= 1
            }
            if let item = change.item, request.matches(item) { total += 1 }
        }
        let available = max(total - request.offset, 0)
        return request.limit.map { min($0, available) } ?? available
    }

    /// The parent's own aggregate (which a database computes without handing out every item) when
    /// the child has not changed the type; otherwise the fold of the overlaid items.
    func aggregate(_ function: AggregateFunction, of attribute: String, matching request: DataStoreRequest) throws -> Value? {
        guard let local = changes[key(request.itemType)], !local.isEmpty else {
            return try parent.reader.aggregate(function, of: attribute, matching: request)
        }
        return try foldAggregate(function, of: attribute, matching: request)
    }

    func itemTypes() throws -> [String] {
        var types = Set(try parent.itemTypes().map(key))
        for typeKey in changes.keys {
            if try countItems(matching: DataStoreRequest(itemType: typeKey.name)) > 0 {
                types.insert(typeKey)
            } else {
                types.remove(typeKey)
            }
        }
        return types.map(\.name).sorted { ByteOrder.compare($0, $1) < 0 }
    }

    /// Above the parent's floor (which stays above identifiers the parent's engine remembers, such
    /// as an `AUTOINCREMENT` table's sequence) and above every item the child holds.
    func integerIDFloor(ofType itemType: String) throws -> Int64? {
        var floor = try parent.reader.integerIDFloor(ofType: itemType)
        for (id, change) in changes[key(itemType)] ?? [:] where change.item != nil {
            if case .int(let value) = id, floor.map({ value > $0 }) ?? true { floor = value }
        }
        return floor
    }

    /// The parent's indexes and the child's own declarations: a child keeps a catalog, and the
    /// accessor checks the child's writes against its unique indexes by queries on this overlay.
    /// Types match as the child's changes are keyed, as the parent matches them. A declaration an
    /// index of the parent satisfies (the parent declared it since) is left out, as the merge's
    /// `ensureIndex` will leave it out of the parent.
    func indexes(ofType itemType: String) throws -> [DataStoreIndex]? {
        let inParent = try parent.indexes(ofType: itemType)
        return inParent + declaredIndexes.filter { declared in
            key(declared.itemType) == key(itemType)
                && !inParent.contains { $0.satisfies(attributes: declared.attributes, unique: declared.isUnique) }
        }
    }

    /// The parent's relations and the child's own declarations, which the accessor checks the
    /// child's writes against as it checks a store's. A declaration a relation of the parent
    /// makes (the parent declared it since) is left out, as the merge will leave it out.
    func relations() throws -> [DataStoreRelation]? {
        let inParent = try parent.currentRelations()
        return inParent + declaredRelations.filter { declared in
            !inParent.contains { $0.hasSameRules(as: declared) || ($0.itemType == declared.itemType && $0.name == declared.name) }
        }
    }

    /// The parent's key columns: a child's items of a type are keyed as its parent's.
    func keyAttributes(ofType itemType: String) throws -> [String]? {
        try parent.reader.keyAttributes(ofType: itemType)
    }

    // MARK: Writing

    func ensureRelation(_ relation: DataStoreRelation) throws -> Bool? {
        declaredRelations.append(relation)
        return true
    }

    func ensureIndex(_ index: DataStoreIndex) throws -> Bool? {
        let existing = try indexes(ofType: index.itemType) ?? []
        if existing.contains(where: { $0.satisfies(attributes: index.attributes, unique: index.isUnique) }) { return false }
        if index.isUnique, let shared = try UniqueIndexes.duplicates(for: index, in: self) {
            throw UniqueIndexes.existingDuplicates(index, shared)
        }
        declaredIndexes.append(index)
        return true
    }

    /// Records the child's new state for one item, remembering the parent's version the first time.
    private func record(_ itemType: String, _ id: ItemID, _ item: Item?) throws {
        let typeKey = key(itemType)
        // An identifier the app chose: the parent (or a sibling) must not generate it while the
        // child holds an item under it, or the merge would put two items in one place. Noted at
        // once, not at commit, for a parent block running meanwhile; a rolled-back one leaves a gap.
        if item != nil, case .int(let value) = id { reservations?.note(value, ofType: itemType) }
        if var change = changes[typeKey]?[id] {
            // Deleting what the child inserted forgets the insert, unless the parent has since
            // made an item of that identifier: then the delete stays, hiding it, and conflicts
            // with it at the merge.
            if item == nil && change.base == nil, try parent.item(ofType: itemType, id: id) == nil {
                changes[typeKey]?[id] = nil
                if changes[typeKey]?.isEmpty == true { changes[typeKey] = nil }
                return
            }
            change.item = item
            changes[typeKey]?[id] = change
        } else {
            let base = ItemDigest.of(try parent.item(ofType: itemType, id: id))
            changes[typeKey, default: [:]][id] = ChildChange(item: item, base: base)
        }
    }

    func insert(_ item: Item) throws {
        if try self.item(ofType: item.itemType, id: item.id) != nil {
            throw DataStoreError(.alreadyExists, "\(item.reference) already exists in the child store",
                                 items: [item.reference])
        }
        try record(item.itemType, item.id, item)
    }

    func save(_ item: Item) throws {
        try record(item.itemType, item.id, item)
    }

    func deleteItem(ofType itemType: String, id: ItemID) throws -> Bool {
        guard try item(ofType: itemType, id: id) != nil else { return false }
        try record(itemType, id, nil)
        return true
    }

    func deleteAllItems(ofType itemType: String) throws -> Int {
        var ids: [ItemID] = []
        var request = DataStoreRequest(itemType: itemType)
        request.ordering = .unspecified
        try forEachItem(matching: request) { item in
            ids.append(item.id)
            return true
        }
        for id in ids { try record(itemType, id, nil) }
        return ids.count
    }
}
