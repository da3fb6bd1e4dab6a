/// The relations one write block checks its writes against, and what it has left to check when
/// it ends: items written that refer to others, and referred items deleted under a `.deny` rule.
/// A class, so that the check every write makes (does the type take part?) copies nothing.
/// Type names match as the store matches them (see ``StoreReader/comparesTypeNamesByBytes``).
final class RelationTracker {
    /// Relations by item type, looked up by a type name as the store compares it.
    struct ByType {
        fileprivate var relations: [TypeNameKey: [DataStoreRelation]] = [:]
        fileprivate let byBytes: Bool

        subscript(itemType: String) -> [DataStoreRelation]? {
            relations[TypeNameKey(name: itemType, byBytes: byBytes)]
        }
    }

    /// An item as the store tells items apart.
    private struct Key: Hashable {
        let itemType: TypeNameKey
        let id: ItemID
    }

    /// Item type → the relations its items refer through.
    let outgoing: ByType
    /// Item type → the relations that refer to its items.
    let incoming: ByType
    /// Whether the store has no relation at all: every write then skips the rest.
    let isEmpty: Bool
    private let byBytes: Bool
    /// Referring items written in the block, in the order first written.
    private(set) var written: [ItemReference] = []
    private var writtenSet: Set<Key> = []
    /// Referred items deleted in the block while a `.deny` relation refers to their type.
    private(set) var deleted: [ItemReference] = []
    private var deletedSet: Set<Key> = []

    init(_ relations: [DataStoreRelation], byBytes: Bool) {
        var outgoing = ByType(byBytes: byBytes)
        var incoming = ByType(byBytes: byBytes)
        for relation in relations {
            outgoing.relations[TypeNameKey(name: relation.itemType, byBytes: byBytes), default: []].append(relation)
            incoming.relations[TypeNameKey(name: relation.relatedType, byBytes: byBytes), default: []].append(relation)
        }
        self.outgoing = outgoing
        self.incoming = incoming
        self.byBytes = byBytes
        isEmpty = relations.isEmpty
    }

    private func key(_ reference: ItemReference) -> Key {
        Key(itemType: TypeNameKey(name: reference.itemType, byBytes: byBytes), id: reference.id)
    }

    /// Whether items of `itemType` refer to others.
    func refers(_ itemType: String) -> Bool {
        !isEmpty && outgoing[itemType] != nil
    }

    /// Notes a written item of a type that refers, to check when the block ends.
    func noteWritten(_ reference: ItemReference) {
        if writtenSet.insert(key(reference)).inserted { written.append(reference) }
    }

    /// Notes a deleted item that a `.deny` relation may still refer to when the block ends.
    func noteDeleted(_ reference: ItemReference) {
        if deletedSet.insert(key(reference)).inserted { deleted.append(reference) }
    }
}
