/// The accessor a write block receives: every read operation plus creating, changing and deleting.
///
/// Reads through this accessor see the block's own changes, including changes made in place to
/// mutable items. Everything is saved when the block returns (no save call) and discarded when it
/// throws or returns ``TransactionStatus/rollback``.
///
/// ```swift
/// try store.writeSync { accessor in
///     let restaurant = try accessor.createItem(ofType: "Restaurant")
///     restaurant["name"] = "Pizza Place"
///     for stale in try accessor.mutableItems(forRequest: DataStoreRequest(itemType: "Special")) {
///         try accessor.delete(item: stale)
///     }
/// }
/// ```
public final class DataStoreReadWriteAccessor: DataStoreReadAccessor {
    let writer: any StoreWriter
    /// Mutable items handed out in this block, so that one stored item has one mutable object.
    var registry: MutableItemRegistry
    /// The unique indexes of each item type this block has checked writes against, with the
    /// spelling of the name they were found for: a store keyed by the bytes of names keeps two spellings of a
    /// name apart, so another spelling asks the engine again, which is always right. Forgotten
    /// when the block declares an index.
    var uniqueIndexCache: [String: (spelling: String, indexes: [DataStoreIndex])] = [:]
    /// For each item type this block generated an integer identifier for, the smallest identifier
    /// the next one may have (raised by every integer identifier the block writes), under the
    /// spelling of the type's name last asked for.
    var nextIntegerIDs: [String: Int64] = [:]
    /// Each entity type's encoder and engine sink in this block (see `EntityWriteStates`).
    var entityWrites = EntityWriteStates()
    /// The store's relations and the references this block has to check, loaded at its first
    /// write and again after it declares a relation.
    var relationTracker: RelationTracker?

    /// Whether the block has handed out mutable items, which typed writes must keep up to date.
    var hasMutableItems: Bool { !registry.isEmpty }

    init(writer: any StoreWriter, context: BlockContext) {
        self.writer = writer
        registry = MutableItemRegistry(byBytes: writer.comparesTypeNamesByBytes)
        super.init(reader: writer, context: context)
    }

    override func checkActiveAndFlushPendingChanges() throws {
        try super.checkActiveAndFlushPendingChanges()
        try flushPendingChanges()
    }

    /// Writes in-place changes of mutable items into the transaction. A write that fails fails
    /// the block (see ``MutableItem``): the changes after it are not written, so the block must
    /// not commit, whether or not the caller catches the error.
    func flushPendingChanges() throws {
        try context.checkPendingError()
        guard !context.dirtyItems.isEmpty else { return }
        let dirty = context.dirtyItems
        context.dirtyItems.removeAll(keepingCapacity: true)
        do {
            for mutable in dirty {
                if let (item, isNew) = mutable.takePendingChange() {
                    try context.locating {
                        try NameRules.validate(item)
                        try checkUnique(item)
                        if isNew {
                            try writer.insert(item)
                        } else {
                            try writer.save(item)
                        }
                    }
                    noteWritten(item.id, ofType: item.itemType)
                    try noteReferrer(item.id, ofType: item.itemType)
                }
            }
        } catch {
            context.pendingError = (error as? DataStoreError)
                ?? DataStoreError(.io, "writing the in-place changes of mutable items failed: \(error)", path: context.location)
            throw error
        }
    }

    func mutable(for item: Item) -> MutableItem {
        if let existing = registry[item.reference] { return existing }
        let mutable = MutableItem(item: item, context: context)
        registry[item.reference] = mutable
        return mutable
    }

    func forget(_ reference: ItemReference) {
        registry.removeValue(forKey: reference)?.markDeleted()
    }

    /// The items the request selects, as mutable items, in the request's order.
    ///
    /// The same stored item always comes back as the same object within one block.
    public func mutableItems(forRequest request: DataStoreRequest) throws -> [MutableItem] {
        try items(forRequest: request).map(mutable(for:))
    }

    /// The first item the request selects, as a mutable item, or `nil`.
    public func firstMutableItem(forRequest request: DataStoreRequest) throws -> MutableItem? {
        try firstItem(forRequest: request).map(mutable(for:))
    }

    /// The stored version of `item` (same type and identifier) as a mutable item, or `nil` when it
    /// is not stored. Use it to change an item read in an earlier block.
    public func mutableVersion(ofItem item: Item) throws -> MutableItem? {
        try checkActiveAndFlushPendingChanges()
        if let existing = registry[item.reference] { return existing }
        return try reader.item(ofType: item.itemType, id: item.id).map(mutable(for:))
    }

    /// Creates a new item with a UUID string identifier, ready to be filled in. It is inserted, with
    /// the values set on it, at the next accessor call or when the block commits.
    ///
    /// - Throws: ``DataStoreError/Code/invalidArgument`` for an invalid type name.
    public func createItem(ofType itemType: String) throws -> MutableItem {
        try createItem(ofType: itemType, id: .generate())
    }

    /// Creates a new item with the given identifier, inserted with its values at the next accessor
    /// call or when the block commits.
    ///
    /// - Throws: ``DataStoreError/Code/alreadyExists`` when an item with this identifier is stored.
    public func createItem(ofType itemType: String, id: ItemID) throws -> MutableItem {
        try checkActiveAndFlushPendingChanges()
        try context.locating {
            try NameRules.validateItemType(itemType)
            if try writer.item(ofType: itemType, id: id) != nil {
                let reference = ItemReference(itemType: itemType, id: id)
                throw DataStoreError(.alreadyExists, "\(reference) already exists; give the new item another identifier",
                                     items: [reference])
            }
        }
        // Written with its first values at the next accessor call or at commit, not empty now.
        let mutable = MutableItem(item: Item(itemType: itemType, id: id), context: context)
        mutable.markUnwritten()
        registry[mutable.reference] = mutable
        noteWritten(id, ofType: itemType)
        return mutable
    }

    /// Inserts a plain item that is not stored yet.
    ///
    /// - Throws: ``DataStoreError/Code/alreadyExists`` when an item with the same type and
    ///   identifier is stored; ``DataStoreError/Code/invalidArgument`` for invalid names.
    public func insert(_ item: Item) throws {
        try checkActiveAndFlushPendingChanges()
        try context.locating {
            try NameRules.validate(item)
            try checkUnique(item)
            try writer.insert(item)
        }
        noteWritten(item.id, ofType: item.itemType)
        try noteReferrer(item.id, ofType: item.itemType)
        if !registry.isEmpty { registry[item.reference]?.replace(with: item) }
    }

    /// Inserts `item`, or replaces all attributes of the stored item with the same type and identifier.
    public func save(_ item: Item) throws {
        try checkActiveAndFlushPendingChanges()
        try context.locating {
            try NameRules.validate(item)
            try checkUnique(item)
            try writer.save(item)
        }
        noteWritten(item.id, ofType: item.itemType)
        try noteReferrer(item.id, ofType: item.itemType)
        if !registry.isEmpty { registry[item.reference]?.replace(with: item) }
    }

    /// Deletes the stored item with the same type and identifier as `item`.
    ///
    /// - Returns: `true` if an item was deleted.
    @discardableResult
    public func delete(item: Item) throws -> Bool {
        try deleteItem(ofType: item.itemType, id: item.id)
    }

    /// Deletes a mutable item. The object cannot be changed afterwards.
    ///
    /// - Returns: `true` if an item was deleted.
    @discardableResult
    public func delete(item: MutableItem) throws -> Bool {
        try deleteItem(ofType: item.itemType, id: item.id)
    }

    /// Deletes the item of `itemType` with identifier `id`.
    ///
    /// - Returns: `true` if an item was deleted.
    @discardableResult
    public func deleteItem(ofType itemType: String, id: ItemID) throws -> Bool {
        try checkActiveAndFlushPendingChanges()
        try context.locating { try NameRules.validateItemType(itemType) }
        forget(ItemReference(itemType: itemType, id: id))
        if try refersToType(itemType) { return try deleteApplyingRules(ofType: itemType, id: id) }
        return try writer.deleteItem(ofType: itemType, id: id)
    }

    /// Deletes every item of `itemType`.
    ///
    /// - Returns: how many items were deleted.
    @discardableResult
    public func deleteAllItems(ofType itemType: String) throws -> Int {
        try checkActiveAndFlushPendingChanges()
        try context.locating { try NameRules.validateItemType(itemType) }
        for (reference, _) in registry.handedOut(ofType: itemType) {
            forget(reference)
        }
        if try refersToType(itemType) {
            return try deleteApplyingRules(matching: DataStoreRequest(itemType: itemType)) {
                try writer.deleteAllItems(ofType: itemType)
            }
        }
        return try writer.deleteAllItems(ofType: itemType)
    }
}
