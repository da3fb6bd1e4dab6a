import Persist

/// A snapshot for a read block, or a working copy for a write block.
final class JSONFileTransaction: StoreWriter {
    private(set) var items: [ItemReference: Item]

    init(items: [ItemReference: Item]) {
        self.items = items
    }

    func item(ofType itemType: String, id: ItemID) throws -> Item? {
        items[ItemReference(itemType: itemType, id: id)]
    }

    func forEachItem(matching request: DataStoreRequest, _ body: (Item) throws -> Bool) throws {
        for item in request.apply(to: items.values.filter { $0.itemType == request.itemType }) where try !body(item) {
            return
        }
    }

    func countItems(matching request: DataStoreRequest) throws -> Int {
        request.apply(to: items.values.filter { $0.itemType == request.itemType }).count
    }

    func itemTypes() throws -> [String] {
        Set(items.keys.map(\.itemType)).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    func insert(_ item: Item) throws {
        guard items[item.reference] == nil else {
            throw DataStoreError(.alreadyExists, "\(item.reference) already exists", items: [item.reference])
        }
        items[item.reference] = item
    }

    func save(_ item: Item) throws {
        items[item.reference] = item
    }

    func deleteItem(ofType itemType: String, id: ItemID) throws -> Bool {
        items.removeValue(forKey: ItemReference(itemType: itemType, id: id)) != nil
    }

    func deleteAllItems(ofType itemType: String) throws -> Int {
        let doomed = items.keys.filter { $0.itemType == itemType }
        for reference in doomed { items[reference] = nil }
        return doomed.count
    }
}
