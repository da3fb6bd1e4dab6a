/// An item: a plain value with an item type, an identifier and named attributes.
///
/// Items are `Sendable` values, safe to keep and to pass between threads after the block that read
/// them has ended. Reading a missing attribute gives `nil`; setting an attribute to `nil` or
/// `.null` removes it, so an item never holds a null attribute at its top level and every store
/// returns the same item whether it keeps nulls or not.
///
/// ```swift
/// var item = Item(itemType: "Restaurant", id: "margherita")
/// item["name"] = "Pizza Place"
/// item["rating"] = 4
/// assert(item["rating"] == 4)
/// item["rating"] = nil            // removes the attribute
/// ```
public struct Item: Sendable, Hashable {
    /// The item type, such as `"Restaurant"`: a table in an SQL store, a key prefix in a key-value file.
    public let itemType: String
    /// The identifier, unique within the item type.
    public let id: ItemID
    /// The attributes by name. Never contains `.null` values.
    public private(set) var attributes: [String: Value]

    /// Makes an item. Attributes holding `.null` are dropped.
    ///
    /// - Parameters:
    ///   - itemType: the item type's name.
    ///   - id: the identifier; a new UUID string when omitted.
    ///   - attributes: the attribute values by name.
    public init(itemType: String, id: ItemID = .generate(), attributes: [String: Value] = [:]) {
        self.itemType = itemType
        self.id = id
        if attributes.values.contains(where: \.isNull) {
            self.attributes = attributes.filter { !$0.value.isNull }
        } else {
            self.attributes = attributes
        }
    }

    /// Makes an item whose attributes the caller guarantees hold no `.null`, such as those a row
    /// decoder assembled: no scan for nulls.
    package init(itemType: String, id: ItemID, nonNullAttributes attributes: [String: Value]) {
        self.itemType = itemType
        self.id = id
        self.attributes = attributes
    }

    /// The reference (item type and identifier) naming this item.
    public var reference: ItemReference { ItemReference(itemType: itemType, id: id) }

    /// The value of the attribute `name`, or `nil` when the item has none.
    /// Assigning `nil` or `.null` removes the attribute.
    public subscript(name: String) -> Value? {
        get { attributes[name] }
        set {
            if let newValue, !newValue.isNull {
                attributes[name] = newValue
            } else {
                attributes[name] = nil
            }
        }
    }

    /// The same item with attributes replaced, dropping any `.null` values.
    public func replacingAttributes(_ attributes: [String: Value]) -> Item {
        Item(itemType: itemType, id: id, attributes: attributes)
    }
}

extension Item: CustomStringConvertible {
    /// A readable rendering, for messages and logs.
    public var description: String {
        let body = attributes.keys.sorted().map { "\($0): \(attributes[$0]?.description ?? "null")" }
        return "\(reference) {\(body.joined(separator: ", "))}"
    }
}
