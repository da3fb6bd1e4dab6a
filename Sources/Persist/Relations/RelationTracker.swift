/// The relations one write block checks its writes against, and what it has left to check when
/// it ends: items written that refer to others, and referred items deleted under a `.deny` rule.
struct RelationTracker {
    /// Item type → the relations its items refer through.
    let outgoing: [String: [DataStoreRelation]]
    /// Item type → the relations that refer to its items.
    let incoming: [String: [DataStoreRelation]]
    /// Whether the store has no relation at all: every write then skips the rest.
    let isEmpty: Bool
    /// Referring items written in the block, in the order first written.
    private(set) var written: [ItemReference] = []
    private var writtenSet: Set<ItemReference> = []
    /// Referred items deleted in the block while a `.deny` relation refers to their type.
    private(set) var deleted: [ItemReference] = []
    private var deletedSet: Set<ItemReference> = []

    init(_ relations: [DataStoreRelation]) {
        var outgoing: [String: [DataStoreRelation]] = [:]
        var incoming: [String: [DataStoreRelation]] = [:]
        for relation in relations {
            outgoing[relation.itemType, default: []].append(relation)
            incoming[relation.relatedType, default: []].append(relation)
        }
        self.outgoing = outgoing
        self.incoming = incoming
        isEmpty = relations.isEmpty
    }

    /// Whether items of `itemType` refer to others.
    func refers(_ itemType: String) -> Bool {
        !isEmpty && outgoing[itemType] != nil
    }

    /// Notes a written item of a type that refers, to check when the block ends.
    mutating func noteWritten(_ reference: ItemReference) {
        if writtenSet.insert(reference).inserted { written.append(reference) }
    }

    /// Notes a deleted item that a `.deny` relation may still refer to when the block ends.
    mutating func noteDeleted(_ reference: ItemReference) {
        if deletedSet.insert(reference).inserted { deleted.append(reference) }
    }
}
