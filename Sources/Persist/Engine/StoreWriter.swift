/// The write operations a store's engine provides inside one write transaction.
///
/// Reads through the same object see the transaction's own changes.
///
/// The four requirements `insert`, `save`, `deleteItem` and `deleteAllItems` are all an engine
/// must write. The set-based writes, integer identifiers and index declarations have default
/// implementations built on them (see <doc:Contract>); an engine overrides them to do the same
/// work faster, for example in one SQL statement, and must then give exactly the default's result.
public protocol StoreWriter: StoreReader {
    /// Adds an item that must not exist yet.
    ///
    /// - Throws: ``DataStoreError/Code/alreadyExists`` when an item with the same type and id is stored.
    func insert(_ item: Item) throws

    /// Adds the item, or replaces every attribute of the stored item with the same type and id.
    func save(_ item: Item) throws

    /// Removes one item; `true` if it existed.
    func deleteItem(ofType itemType: String, id: ItemID) throws -> Bool

    /// Removes every item of a type; returns how many there were.
    func deleteAllItems(ofType itemType: String) throws -> Int

    /// Removes every item the request selects (filter, order, offset and limit as for
    /// `forEachItem(matching:_:)`); returns how many there were.
    ///
    /// The default collects the selected identifiers, then deletes them one by one.
    ///
    /// ```swift
    /// let removed = try writer.deleteItems(matching: DataStoreRequest(itemType: "Draft"))
    /// ```
    func deleteItems(matching request: DataStoreRequest) throws -> Int

    /// Sets the attributes in `values` on every item the request selects (`.null` removes an
    /// attribute; other attributes keep their values); returns how many items it selected.
    ///
    /// The default reads the selected items, then saves each changed copy.
    ///
    /// ```swift
    /// let changed = try writer.updateItems(matching: DataStoreRequest(itemType: "Todo"), setting: ["done": true])
    /// ```
    func updateItems(matching request: DataStoreRequest, setting values: [String: Value]) throws -> Int

    /// The integer identifier the engine would give a new item of `itemType` now: greater than
    /// every `.int` identifier of the type. Only called inside write transactions, which are
    /// exclusive across processes, so nothing can take the identifier before the block commits.
    ///
    /// The default is one above ``StoreReader/integerIDFloor(ofType:)`` (1 for a type without
    /// integer identifiers). An engine with a sequence of its own (an `AUTOINCREMENT` table's)
    /// answers from it, so that code using the engine directly never hands out the same identifier.
    ///
    /// ```swift
    /// let id = try writer.nextIntegerID(ofType: "Todo")   // 1 for a type without integer identifiers
    /// ```
    ///
    /// - Throws: ``DataStoreError/Code/unsupported`` when the type already holds `Int64.max`.
    func nextIntegerID(ofType itemType: String) throws -> Int64

    /// Declares `index`, building it from the stored items; returns `true` when it was created and
    /// `false` when an index already satisfied it (``DataStoreIndex/satisfies(attributes:unique:)``),
    /// or `nil` when the engine keeps no index catalog of its own.
    ///
    /// The default is `nil` (the scheduler keeps the declaration). An engine that returns a value
    /// must also answer ``StoreReader/indexes(ofType:)``.
    ///
    /// ```swift
    /// let created = try writer.ensureIndex(DataStoreIndex(itemType: "User", attributes: ["email"], isUnique: true))
    /// ```
    ///
    /// - Throws: ``DataStoreError/Code/uniqueViolation`` naming items that already share values,
    ///   for a unique index; nothing is declared then.
    func ensureIndex(_ index: DataStoreIndex) throws -> Bool?

    /// Declares `relation`; returns `true` when it was created and `false` when a relation with the
    /// same rules already existed (``DataStoreRelation/hasSameRules(as:)``), or `nil` when the
    /// engine keeps no relation catalog of its own. The accessor has already checked the
    /// declaration and the stored items against it; the engine refuses what it cannot express
    /// (a related table without a key, say) with ``DataStoreError/Code/invalidArgument``.
    ///
    /// The default is `nil` (the scheduler keeps the declaration). An engine that returns a value
    /// must also answer ``StoreReader/relations()``.
    ///
    /// ```swift
    /// let created = try writer.ensureRelation(DataStoreRelation(itemType: "Track", attributes: ["albumId"],
    ///                                                           relatedType: "Album", onDelete: .cascade))
    /// ```
    func ensureRelation(_ relation: DataStoreRelation) throws -> Bool?

    /// Whether the engine itself carries out the delete rule of `relation` when a referred item is
    /// deleted (a foreign key's `ON DELETE CASCADE` or `SET NULL`). The accessor then leaves the
    /// referring items to it; otherwise it cascades and nullifies itself, before the deletion.
    ///
    /// The default is `false`.
    ///
    /// ```swift
    /// func appliesDeleteRule(of relation: DataStoreRelation) -> Bool { true }   // real foreign keys
    /// ```
    func appliesDeleteRule(of relation: DataStoreRelation) -> Bool

    /// Whether the engine itself refuses writes that break its unique indexes, throwing
    /// ``DataStoreError/Code/uniqueViolation`` and leaving the transaction as it was.
    ///
    /// The default is `false`: the accessor then checks every write against the unique indexes by
    /// equality queries before passing it on.
    ///
    /// ```swift
    /// var enforcesUniqueIndexes: Bool { true }   // an SQL engine with real unique indexes
    /// ```
    var enforcesUniqueIndexes: Bool { get }

    /// Whether every generated identifier of `itemType` must be asked of the writer with
    /// ``nextIntegerID(ofType:)``, not counted up from the block's first.
    ///
    /// The accessor normally asks once per block and counts up, since no other writer can insert
    /// before the block commits. A legacy `INSERT` that lets a sequenced key default (a `serial`
    /// or identity key) does not wait for the block, though: it takes the sequence's next
    /// value, which may be the one the block would count up to. Only called inside the write
    /// transaction; must not touch the server.
    ///
    /// The default is `false`.
    ///
    /// ```swift
    /// let askEachTime = writer.takesEachIntegerIDFromSequence(ofType: "Todo")
    /// ```
    func takesEachIntegerIDFromSequence(ofType itemType: String) -> Bool

    /// Throws ``DataStoreError/Code/unsupported`` when the key of `itemType` cannot hold the
    /// generated identifier `id`: counting up (or staying above identifiers handed out before) may
    /// leave the range of a key column narrower than `Int64`. Must not touch the server.
    ///
    /// The default checks nothing.
    ///
    /// ```swift
    /// try writer.checkGeneratedIntegerID(Int64(Int32.max) + 1, ofType: "Todo")
    /// ```
    func checkGeneratedIntegerID(_ id: Int64, ofType itemType: String) throws

    /// The writer's way to load many new items at once, which ``Migration`` loads the store with:
    /// the writer itself when it conforms to ``BulkLoadWriter``, `nil` otherwise (the default),
    /// when migrations insert item by item. Conforming is opting in; a wrapper does not write this
    /// member.
    ///
    /// ```swift
    /// try writer.bulkLoader?.bulkInsert([ItemRow(item)])
    /// ```
    var bulkLoader: (any BulkLoadWriter)? { get }

    /// The writer's way to recreate the schemas a ``Migration`` carries from its source: the
    /// writer itself when it conforms to ``SchemaRecreatingWriter``, `nil` otherwise (the default),
    /// when the store makes its tables from the items. Conforming is opting in; a wrapper does not
    /// write this member.
    ///
    /// ```swift
    /// let made = try writer.schemaRecreating?.recreate(schema) ?? false
    /// ```
    var schemaRecreating: (any SchemaRecreatingWriter)? { get }

    /// The writer's way to write typed entities as rows instead of as items: the writer itself
    /// when it conforms to ``EntityRowWriting``, `nil` otherwise (the default), when typed writes
    /// go through ``insert(_:)`` and ``save(_:)`` with items. Conforming is opting in; a wrapper
    /// does not write this member.
    ///
    /// ```swift
    /// let typedWritesTakeRows = writer.entityRowWriting != nil
    /// ```
    var entityRowWriting: (any EntityRowWriting)? { get }
}
