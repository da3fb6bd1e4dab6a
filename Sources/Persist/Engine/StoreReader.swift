/// The read operations a store's engine provides inside one read (or write) transaction.
///
/// This is the interface for people writing a wrapper of their own: implement ``StoreReader``,
/// ``StoreWriter`` and ``DataStoreEngine``, and ``EngineBackedDataStore`` turns them into a full
/// ``DataStore`` with accessors, mutable items, typed entities, write queues and lifecycle checks.
/// Requests reaching an engine have already passed ``DataStoreRequest/validate()``.
///
/// The first four requirements are all an engine must write. The others — aggregates, the largest
/// integer identifier and the index catalog — have default implementations built on those four
/// (see <doc:Contract>), which an engine overrides only to do the same work faster, for example
/// in one SQL statement; an override must give exactly the default's answer.
///
/// ```swift
/// final class MyReader: StoreReader {
///     func item(ofType itemType: String, id: ItemID) throws -> Item? { … }
///     func forEachItem(matching request: DataStoreRequest, _ body: (Item) throws -> Bool) throws { … }
///     func countItems(matching request: DataStoreRequest) throws -> Int { … }
///     func itemTypes() throws -> [String] { … }
/// }
/// ```
public protocol StoreReader: AnyObject {
    /// The item with this type and identifier, or `nil`.
    func item(ofType itemType: String, id: ItemID) throws -> Item?

    /// Calls `body` with each item the request selects, in the request's order, honouring offset
    /// and limit. Stops early when `body` returns `false`.
    func forEachItem(matching request: DataStoreRequest, _ body: (Item) throws -> Bool) throws

    /// The number of items `forEachItem(matching:_:)` would produce.
    func countItems(matching request: DataStoreRequest) throws -> Int

    /// The names of the item types that hold at least one item, in ascending byte order.
    func itemTypes() throws -> [String]

    /// The aggregate `function` of `attribute` over the items `forEachItem(matching:_:)` would
    /// produce, with the semantics of <doc:Aggregates>: `nil` for ``AggregateFunction/minimum``,
    /// ``AggregateFunction/maximum`` and ``AggregateFunction/average`` over no counted value,
    /// `.int(0)` for an empty ``AggregateFunction/sum``.
    ///
    /// The default folds the items of `forEachItem(matching:_:)`.
    ///
    /// ```swift
    /// let total = try reader.aggregate(.sum, of: "seats", matching: DataStoreRequest(itemType: "Restaurant"))
    /// ```
    func aggregate(_ function: AggregateFunction, of attribute: String, matching request: DataStoreRequest) throws -> Value?

    /// The largest `.int` identifier among the items of `itemType`, or `nil` when none has one.
    ///
    /// The default looks at every item of the type.
    ///
    /// ```swift
    /// let largest = try reader.largestIntegerID(ofType: "Todo")
    /// ```
    func largestIntegerID(ofType itemType: String) throws -> Int64?

    /// The integer identifier a new one of `itemType` must stay above: the largest the type holds
    /// or, where the engine remembers identifiers the type no longer holds, the largest it ever
    /// held (the sequence of an `AUTOINCREMENT` table, say); `nil` when there is none.
    /// A child store asks its parent's reader, so that its new items stay above it too.
    ///
    /// The default is ``largestIntegerID(ofType:)``.
    ///
    /// ```swift
    /// let floor = try reader.integerIDFloor(ofType: "Todo")   // the next identifier is above it
    /// ```
    func integerIDFloor(ofType itemType: String) throws -> Int64?

    /// The indexes the engine keeps for `itemType`, or `nil` when the engine keeps no index
    /// catalog of its own.
    ///
    /// The default is `nil`: the store's ``WriteScheduler`` then keeps the declarations, for the
    /// life of the store object, and enforces unique ones by queries (<doc:Indexes>).
    ///
    /// ```swift
    /// let unique = try reader.indexes(ofType: "User")?.filter(\.isUnique)
    /// ```
    func indexes(ofType itemType: String) throws -> [DataStoreIndex]?

    /// Every relation the engine keeps — declared through it, and the foreign keys of adopted
    /// tables — or `nil` when the engine keeps no relation catalog of its own.
    ///
    /// The default is `nil`: the store's ``WriteScheduler`` then keeps the declarations, for the
    /// life of the store object (<doc:Relations>).
    ///
    /// ```swift
    /// let intoAlbum = try reader.relations()?.filter { $0.relatedType == "Album" }
    /// ```
    func relations() throws -> [DataStoreRelation]?

    /// The names of the columns that hold the identifiers of `itemType`'s items, one per
    /// component, when a relation may name them: an adopted SQL table whose key columns refer to
    /// another table (a link table keyed by two foreign keys). `nil` when the identifiers are
    /// held in no named column.
    ///
    /// The default is `nil`.
    ///
    /// ```swift
    /// let key = try reader.keyAttributes(ofType: "playlist_track")   // ["PlaylistId", "TrackId"]
    /// ```
    func keyAttributes(ofType itemType: String) throws -> [String]?

    /// The items of `itemType` with the identifiers in `ids` that are stored, in no set order.
    /// Following a relation from many items reads their related items with it.
    ///
    /// The default reads them one by one with ``item(ofType:id:)``; an SQL engine reads them in
    /// one statement.
    ///
    /// ```swift
    /// let albums = try reader.items(ofType: "Album", ids: [1, 2, 3])
    /// ```
    func items(ofType itemType: String, ids: [ItemID]) throws -> [Item]

    /// Whether two item type names are one type only when their UTF-8 bytes are equal.
    ///
    /// Most stores take type names as Swift strings, so that two Unicode spellings of one name
    /// (`"é"` as one scalar and as `e` with a combining accent) are one type; a store keyed by the
    /// bytes of names compares their UTF-8 bytes, so there they are two. A child store keys its changes the way its parent
    /// compares names, so that it shows, and merges, exactly what its parent would.
    ///
    /// The default is `false`: names compare as Swift strings.
    ///
    /// ```swift
    /// var comparesTypeNamesByBytes: Bool { true }   // a store keyed by the bytes of names
    /// ```
    var comparesTypeNamesByBytes: Bool { get }

    /// The reader's way to stream items as rows, which ``Migration`` reads a source and verifies a
    /// target with: the reader itself when it conforms to ``RowStreamingReader``, `nil` otherwise
    /// (the default), when migrations read items through ``forEachItem(matching:_:)``. Conforming
    /// is opting in; a wrapper does not write this member.
    ///
    /// ```swift
    /// let total = try reader.rowStreaming?.countRows(ofTypes: nil).total
    /// ```
    var rowStreaming: (any RowStreamingReader)? { get }

    /// The reader's way to describe the schemas of its item types, which ``Migration`` carries to a
    /// target that recreates them: the reader itself when it conforms to
    /// ``SchemaDescribingReader``, `nil` otherwise (the default), when a migration's target makes
    /// its tables from the items. Conforming is opting in; a wrapper does not write this member.
    ///
    /// ```swift
    /// let described = try reader.schemaDescribing?.describedTypes() ?? []
    /// ```
    var schemaDescribing: (any SchemaDescribingReader)? { get }

    /// The reader's way to read typed entities as rows instead of as items: the reader itself when
    /// it conforms to ``EntityRowReading``, `nil` otherwise (the default), when typed reads decode
    /// entities from the items of ``forEachItem(matching:_:)`` and ``item(ofType:id:)``.
    /// Conforming is opting in; a wrapper does not write this member.
    ///
    /// ```swift
    /// let typedReadsTakeRows = reader.entityRows != nil
    /// ```
    var entityRows: (any EntityRowReading)? { get }
}

extension StoreReader {
    /// Every item the request selects, in order.
    public func items(matching request: DataStoreRequest) throws -> [Item] {
        var items: [Item] = []
        try forEachItem(matching: request) { item in
            items.append(item)
            return true
        }
        return items
    }
}
