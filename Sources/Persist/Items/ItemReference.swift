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

    /// A readable rendering, for messages and logs. An identifier longer than 96 characters as
    /// written is shortened to its start and end, with its length (a 2,000-byte key of a foreign file would
    /// otherwise fill a screen with hexadecimal, in every message that names it).
    public var description: String {
        let written = "\(id)"
        guard written.count > Self.longestWrittenID else { return "\(itemType)/\(written)" }
        // Bytes are written `<hex>`: whole bytes at each end, 32 and 8 of them.
        let (head, tail, length) = switch id {
        case .int: (64, 16, "")
        case .string(let string): (64, 16, " (\(string.utf8.count) bytes of UTF-8)")
        case .bytes(let bytes): (65, 17, " (\(bytes.count) bytes)")
        case .composite(let components): (64, 16, " (\(components.count) components)")
        }
        return "\(itemType)/\(written.prefix(head))…\(written.suffix(tail))\(length)"
    }

    /// The longest identifier ``description`` writes whole, in characters.
    static let longestWrittenID = 96
}
