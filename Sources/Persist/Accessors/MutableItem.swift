import Logging

/// An item you can change in place inside a write block.
///
/// Write accessors hand out mutable items from ``DataStoreReadWriteAccessor/createItem(ofType:)``,
/// ``DataStoreReadWriteAccessor/mutableItems(forRequest:)``,
/// ``DataStoreReadWriteAccessor/firstMutableItem(forRequest:)`` and
/// ``DataStoreReadWriteAccessor/mutableVersion(ofItem:)``. Changes are saved when the block
/// commits, with no save call, and later reads in the same block already see them.
///
/// ```swift
/// try store.writeSync { accessor in
///     let restaurant = try accessor.createItem(ofType: "Restaurant")
///     restaurant["name"] = "Pizza Place"
///     restaurant["rating"] = 4
/// }
/// ```
///
/// A mutable item belongs to its block. After the block ends, reading it still gives the values it
/// had, but changing it has no effect: the subscript setter logs an error and ignores the change,
/// and ``set(_:forKey:)`` throws ``DataStoreError/Code/misuse``. To change an item later, fetch it
/// again in a new write block.
///
/// Inside the block, a change the subscript cannot make (an empty attribute name, or an item
/// deleted earlier in the block) fails the whole block: the next accessor call, or the commit,
/// throws the error and everything rolls back. ``set(_:forKey:)`` throws it at once instead.
/// Changes are written to the transaction at the next accessor call; a write the store refuses
/// there (a unique index, say) fails the whole block the same way, even when the caller catches
/// the error, since the other items' changes could not be written after it.
public final class MutableItem {
    private let context: BlockContext
    private(set) var storage: Item
    private var isDirty = false
    /// Whether the item was created in this block and is not written to the transaction yet.
    private var isUnwritten = false
    /// Whether the item was deleted in its block.
    public private(set) var isDeleted = false

    init(item: Item, context: BlockContext) {
        self.storage = item
        self.context = context
    }

    /// The item type.
    public var itemType: String { storage.itemType }
    /// The identifier.
    public var id: ItemID { storage.id }
    /// The reference (item type and identifier) naming this item.
    public var reference: ItemReference { storage.reference }
    /// The current attributes.
    public var attributes: [String: Value] { storage.attributes }
    /// The current state as a plain, `Sendable` item that outlives the block.
    public var item: Item { storage }

    /// The value of the attribute `name`; assigning `nil` or `.null` removes it.
    ///
    /// Assigning after the block ended logs an error and changes nothing. Inside the block, an
    /// assignment that cannot be made fails the block. Use ``set(_:forKey:)`` to get the error at once.
    public subscript(name: String) -> Value? {
        get { storage[name] }
        set {
            do {
                try set(newValue, forKey: name)
            } catch let error as DataStoreError {
                if context.isActive {
                    // The block fails with this error at its next operation or at commit.
                    if context.pendingError == nil { context.pendingError = error }
                } else {
                    context.logger.error(
                        "ignored a change to \(storage.reference).\(name): \(error)",
                        metadata: ["store": .string(context.location)])
                }
            } catch {
                context.logger.error("ignored a change to \(storage.reference).\(name): \(error)")
            }
        }
    }

    /// Sets the attribute `name` to `value` (`nil` or `.null` removes it).
    ///
    /// - Throws: ``DataStoreError/Code/misuse`` after the block ended or the item was deleted;
    ///   ``DataStoreError/Code/invalidArgument`` for an empty name or one containing NUL.
    public func set(_ value: Value?, forKey name: String) throws {
        try context.checkActive("the mutable item \(storage.reference)")
        try context.locating {
            if isDeleted {
                throw DataStoreError.misuse("the mutable item \(storage.reference) was deleted in this block; it cannot change")
            }
            try NameRules.validateAttribute(name, of: storage.itemType)
        }
        storage[name] = value
        markDirty()
    }

    func markDirty() {
        if !isDirty {
            isDirty = true
            context.dirtyItems.append(self)
        }
    }

    /// Hands back the pending state and clears the dirty mark; `nil` when there is nothing to
    /// write. `isNew` is true the first time for an item created in this block, which must be
    /// inserted rather than saved.
    func takePendingChange() -> (item: Item, isNew: Bool)? {
        guard isDirty else { return nil }
        isDirty = false
        guard !isDeleted else { return nil }
        defer { isUnwritten = false }
        return (storage, isUnwritten)
    }

    /// Marks an item created in this block: it is inserted, with the values set meanwhile, at the
    /// next accessor call or at commit, so that tables requiring values (`NOT NULL` columns) accept it.
    func markUnwritten() {
        isUnwritten = true
        markDirty()
    }

    func replace(with item: Item) {
        storage = item
    }

    func markDeleted() {
        isDeleted = true
        isDirty = false
    }
}

extension MutableItem: CustomStringConvertible {
    /// A readable rendering, for messages and logs.
    public var description: String { storage.description }
}
