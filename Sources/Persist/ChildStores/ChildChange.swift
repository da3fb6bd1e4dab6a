internal import HashTreeCollections

/// One item a child store changed: its state in the child, and a digest of the parent's version
/// when the child first changed it (the base that merge compares with, to find conflicts).
struct ChildChange: Sendable {
    /// The item as the child has it; `nil` when the child deleted it.
    var item: Item?
    /// The parent's version when the child first changed the item, as a digest (a child holds its
    /// changes, not copies of the parent's items); `nil` when the parent had none.
    let base: ItemDigest?
}

/// A child's changes by item type (compared as the parent compares type names), then identifier:
/// persistent hash trees, so that a read block's snapshot costs nothing and a write block shares
/// everything it does not change.
typealias ChildChanges = TreeDictionary<TypeNameKey, TreeDictionary<ItemID, ChildChange>>
