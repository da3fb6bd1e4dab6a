/// The order in which a merge saves one type's items, so that a child that moved a unique value
/// from one item to another merges as it reads.
///
/// A store checks a unique index at every save, as SQL does at every statement. The child's
/// changes were valid one at a time in the order it made them, but a merge knows only their
/// results, so it orders them again: an item that gives up a value its parent version holds is
/// saved before the item that takes that value. Items whose values pass round in a cycle (two
/// items that swapped values, say) cannot be ordered; they first give up their unique attributes
/// (or hold temporary values, see ``MergeRelease``), and are saved whole after everything else.
struct MergeSaveOrder {
    /// The saves in the order to make them.
    let saves: [Item]
    /// Items to save first without their unique attributes, to free the values they hold.
    let releases: [Item]

    /// Orders `saves` (in identifier order) for the type's unique `indexes`; `current` gives each
    /// item's version in the parent as the merge's block sees it.
    init(_ saves: [Item], indexes: [DataStoreIndex], current: (ItemID) throws -> Item?) throws {
        guard !indexes.isEmpty, saves.count > 1 else {
            self.saves = saves
            releases = []
            return
        }
        // The values each item gives up: held by its parent version, not by its new one.
        var givenUp: [[UInt8]: Int] = [:]
        for (position, item) in saves.enumerated() {
            guard let parentVersion = try current(item.id) else { continue }
            for (number, index) in indexes.enumerated() {
                guard let held = Self.key(parentVersion, index, number), held != Self.key(item, index, number) else { continue }
                givenUp[held] = position
            }
        }
        guard !givenUp.isEmpty else {
            self.saves = saves
            releases = []
            return
        }
        // An edge from the item giving a value up to the item taking it.
        var takers: [[Int]] = Array(repeating: [], count: saves.count)
        var waiting = Array(repeating: 0, count: saves.count)
        for (position, item) in saves.enumerated() {
            for (number, index) in indexes.enumerated() {
                guard let taken = Self.key(item, index, number), let giver = givenUp[taken], giver != position else { continue }
                takers[giver].append(position)
                waiting[position] += 1
            }
        }
        // Kahn's order, starting from the items in identifier order.
        var ready = saves.indices.filter { waiting[$0] == 0 }
        var ordered: [Int] = []
        ordered.reserveCapacity(saves.count)
        var next = 0
        while next < ready.count {
            let position = ready[next]
            next += 1
            ordered.append(position)
            for taker in takers[position] {
                waiting[taker] -= 1
                if waiting[taker] == 0 { ready.append(taker) }
            }
        }
        let stuck = saves.indices.filter { waiting[$0] > 0 }
        self.saves = (ordered + stuck).map { saves[$0] }
        let unique = Set(indexes.flatMap(\.attributes))
        releases = try stuck.compactMap { position in
            let item = saves[position]
            guard try current(item.id) != nil else { return nil }
            var released = item
            for name in unique { released[name] = nil }
            return released
        }
    }

    /// The index's number and the item's values for it, or `nil` when the item lacks one.
    private static func key(_ item: Item, _ index: DataStoreIndex, _ number: Int) -> [UInt8]? {
        guard let values = UniqueIndexes.values(of: item, for: index) else { return nil }
        var key: [UInt8] = []
        BinaryValueCoding.appendVarint(UInt64(number), to: &key)
        for value in values { IndexKey.append(value, to: &key) }
        return key
    }
}
