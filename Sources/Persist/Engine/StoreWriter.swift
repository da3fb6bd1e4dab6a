/// The write operations a store's engine provides inside one write transaction.
///
/// Reads through the same object see the transaction's own changes.
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
}
