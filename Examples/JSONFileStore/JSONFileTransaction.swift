import Persist

/// A snapshot for a read block, or a working copy for a write block: every ``StoreWriter``
/// operation over a dictionary of items. Public so that another engine kept in memory can use it.
///
/// ```swift
/// let transaction = JSONFileTransaction(items: [:])
/// try transaction.insert(Item(itemType: "Note", id: 1))
/// ```
public final class JSONFileTransaction: StoreWriter {
    public internal(set) var items: [ItemReference: Item]
    /// The items a bulk load stored over another it loaded, reported when the load finishes.
    var loadedTwice: [ItemReference] = []
    /// How often this block took each fast path.
    var fastPaths = JSONFileFastPaths()

    public init(items: [ItemReference: Item]) {
        self.items = items
    }

    public func item(ofType itemType: String, id: ItemID) throws -> Item? {
        items[ItemReference(itemType: itemType, id: id)]
    }

    public func forEachItem(matching request: DataStoreRequest, _ body: (Item) throws -> Bool) throws {
        for item in request.apply(to: items.values.filter { $0.itemType == request.itemType }) where try !body(item) {
            return
        }
    }

    public func countItems(matching request: DataStoreRequest) throws -> Int {
        request.apply(to: items.values.filter { $0.itemType == request.itemType }).count
    }

    public func itemTypes() throws -> [String] {
        Set(items.keys.map(\.itemType)).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    public func insert(_ item: Item) throws {
        guard items[item.reference] == nil else {
            throw DataStoreError(.alreadyExists, "\(item.reference) already exists", items: [item.reference])
        }
        items[item.reference] = item
    }

    public func save(_ item: Item) throws {
        items[item.reference] = item
    }

    public func deleteItem(ofType itemType: String, id: ItemID) throws -> Bool {
        items.removeValue(forKey: ItemReference(itemType: itemType, id: id)) != nil
    }

    public func deleteAllItems(ofType itemType: String) throws -> Int {
        let doomed = items.keys.filter { $0.itemType == itemType }
        for reference in doomed { items[reference] = nil }
        return doomed.count
    }
}
