/// The mutable items a write block handed out, one object per stored item: references match as
/// the store matches type names (see ``StoreReader/comparesTypeNamesByBytes``), so that on a store
/// that keeps two Unicode spellings of a name apart, each spelling's item has its own object.
struct MutableItemRegistry {
    private struct Key: Hashable {
        let itemType: TypeNameKey
        let id: ItemID
    }

    private var items: [Key: MutableItem] = [:]
    private let byBytes: Bool

    /// An empty registry for a store that compares type names by their bytes, or as Swift strings.
    init(byBytes: Bool) {
        self.byBytes = byBytes
    }

    private func key(_ reference: ItemReference) -> Key {
        Key(itemType: TypeNameKey(name: reference.itemType, byBytes: byBytes), id: reference.id)
    }

    var isEmpty: Bool { items.isEmpty }

    subscript(reference: ItemReference) -> MutableItem? {
        get { items[key(reference)] }
        set { items[key(reference)] = newValue }
    }

    /// Removes the mutable item of `reference`, returning it.
    mutating func removeValue(forKey reference: ItemReference) -> MutableItem? {
        items.removeValue(forKey: key(reference))
    }

    /// The mutable items of `itemType`, with the references they were handed out under.
    func handedOut(ofType itemType: String) -> [(reference: ItemReference, item: MutableItem)] {
        let wanted = TypeNameKey(name: itemType, byBytes: byBytes)
        return items.compactMap { entry in
            entry.key.itemType == wanted ? (ItemReference(itemType: entry.key.itemType.name, id: entry.key.id), entry.value) : nil
        }
    }
}
