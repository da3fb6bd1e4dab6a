/// Names one item: its item type and its identifier.
///
/// Errors such as ``DataStoreError/Code/conflict`` list the items they concern as references.
///
/// ```swift
/// let reference = ItemReference(itemType: "Restaurant", id: "margherita")
/// print(reference)   // Restaurant/"margherita"
/// ```
public struct ItemReference: Sendable, Hashable, CustomStringConvertible {
    /// The item type, such as `"Restaurant"`.
    public var itemType: String
    /// The identifier within the item type.
    public var id: ItemID

    /// Makes a reference to the item of `itemType` with identifier `id`.
    public init(itemType: String, id: ItemID) {
        self.itemType = itemType
        self.id = id
    }

    /// A readable rendering, for messages and logs.
    public var description: String { "\(itemType)/\(id)" }
}
