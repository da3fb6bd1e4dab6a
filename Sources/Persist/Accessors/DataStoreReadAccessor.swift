/// The accessor a read block receives: every read operation, and no way to write.
///
/// An accessor is valid only inside the block that received it; using it afterwards throws
/// ``DataStoreError/Code/misuse``. The items it returns are plain values that stay valid forever.
///
/// ```swift
/// let (count, best) = try store.read { accessor in
///     var request = DataStoreRequest(itemType: "Restaurant")
///     request.setSort(byKey: "rating", ascending: false)
///     return (try accessor.countItems(forRequest: request), try accessor.firstItem(forRequest: request))
/// }
/// ```
public class DataStoreReadAccessor {
    let reader: any StoreReader
    let context: BlockContext
    /// Each item type's key attributes (``StoreReader/keyAttributes(ofType:)``), asked once per
    /// block, for relations that refer through key columns.
    var keyAttributeCache: [String: [String]?] = [:]

    init(reader: any StoreReader, context: BlockContext) {
        self.reader = reader
        self.context = context
    }

    /// Runs before every accessor operation: throws when the block has ended, and (in a write
    /// block) writes the in-place changes of mutable items into the transaction, so that the
    /// operation sees them. A read accessor has no changes to flush.
    func checkActiveAndFlushPendingChanges() throws {
        try context.checkActive("an accessor")
    }

    /// Every item the request selects, in the request's order.
    ///
    /// - Throws: ``DataStoreError/Code/invalidArgument`` for an invalid request (empty type name,
    ///   negative offset or limit); the store's errors.
    public func items(forRequest request: DataStoreRequest) throws -> [Item] {
        try checkActiveAndFlushPendingChanges()
        return try reader.items(matching: prepared(request))
    }

    /// The first item the request selects (after its offset), or `nil`.
    public func firstItem(forRequest request: DataStoreRequest) throws -> Item? {
        try checkActiveAndFlushPendingChanges()
        var first = try prepared(request)
        first.limit = min(request.limit ?? 1, 1)
        var found: Item?
        try reader.forEachItem(matching: first) { item in
            found = item
            return false
        }
        return found
    }

    /// How many items ``items(forRequest:)`` would return: the filter, offset and limit all apply.
    public func countItems(forRequest request: DataStoreRequest) throws -> Int {
        try checkActiveAndFlushPendingChanges()
        return try reader.countItems(matching: prepared(request))
    }

    /// Streams the items the request selects, in order, one at a time, without holding them all in
    /// memory. Throw from `body` to stop early; the error is rethrown.
    ///
    /// ```swift
    /// try store.read { accessor in
    ///     try accessor.forEachItem(forRequest: DataStoreRequest(itemType: "Restaurant")) { item in
    ///         print(item["name"] ?? "unnamed")
    ///     }
    /// }
    /// ```
    public func forEachItem(forRequest request: DataStoreRequest, _ body: (Item) throws -> Void) throws {
        try checkActiveAndFlushPendingChanges()
        try reader.forEachItem(matching: prepared(request)) { item in
            try body(item)
            return true
        }
    }

    /// The item of `itemType` with identifier `id`, or `nil`.
    public func item(ofType itemType: String, id: ItemID) throws -> Item? {
        try checkActiveAndFlushPendingChanges()
        try context.locating { try NameRules.validateItemType(itemType) }
        return try reader.item(ofType: itemType, id: id)
    }

    /// The names of the item types that hold at least one item, sorted by their UTF-8 bytes.
    public func itemTypes() throws -> [String] {
        try checkActiveAndFlushPendingChanges()
        return try reader.itemTypes()
    }
}
