internal import HashTreeCollections

/// One item a child store changed: its state in the child, and the parent's version when the
/// child first changed it (the base that merge compares with, to find conflicts).
struct ChildChange: Sendable {
    /// The item as the child has it; `nil` when the child deleted it.
    var item: Item?
    /// The parent's version when the child first changed the item; `nil` when the parent had none.
    let base: Item?
}

/// A child's changes by item type, then identifier: persistent hash trees, so that a read block's
/// snapshot costs nothing and a write block shares everything it does not change.
typealias ChildChanges = TreeDictionary<String, TreeDictionary<ItemID, ChildChange>>
