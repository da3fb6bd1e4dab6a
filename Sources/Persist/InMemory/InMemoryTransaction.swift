internal import HashTreeCollections

/// A snapshot (for reads) or a private working copy (for writes) of the in-memory tables.
final class InMemoryTransaction: StoreWriter {
    private(set) var tables: InMemoryEngine.Tables

    init(tables: InMemoryEngine.Tables) {
        self.tables = tables
    }

    func item(ofType itemType: String, id: ItemID) throws -> Item? {
        tables[itemType]?[id]
    }

    func forEachItem(matching request: DataStoreRequest, _ body: (Item) throws -> Bool) throws {
        guard let table = tables[request.itemType] else { return }
        for item in request.apply(to: table.values) where try !body(item) {
            return
        }
    }

    func countItems(matching request: DataStoreRequest) throws -> Int {
        guard let table = tables[request.itemType] else { return 0 }
        var matching = 0
        for item in table.values where request.matches(item) { matching += 1 }
        let available = max(matching - request.offset, 0)
        return request.limit.map { min($0, available) } ?? available
    }

    func itemTypes() throws -> [String] {
        tables.keys.filter { !(tables[$0]?.isEmpty ?? true) }.sorted { ByteOrder.compare($0, $1) < 0 }
    }

    func insert(_ item: Item) throws {
        if tables[item.itemType]?[item.id] != nil {
            throw DataStoreError(.alreadyExists, "\(item.reference) already exists in the in-memory store",
                                 path: ":memory:", items: [item.reference])
        }
        tables[item.itemType, default: [:]][item.id] = item
    }

    func save(_ item: Item) throws {
        tables[item.itemType, default: [:]][item.id] = item
    }

    func deleteItem(ofType itemType: String, id: ItemID) throws -> Bool {
        guard tables[itemType]?[id] != nil else { return false }
        tables[itemType]?[id] = nil
        if tables[itemType]?.isEmpty == true { tables[itemType] = nil }
        return true
    }

    func deleteAllItems(ofType itemType: String) throws -> Int {
        let count = tables[itemType]?.count ?? 0
        tables[itemType] = nil
        return count
    }
}
