/// The rules every store applies to item type and attribute names, so that a name accepted by one
/// store is accepted by all: a name is not empty and contains no NUL character.
///
/// ```swift
/// try NameRules.validateItemType("Restaurant")   // fine
/// try NameRules.validateItemType("")             // throws invalidArgument
/// ```
public enum NameRules {
    /// Checks an item type name.
    ///
    /// - Throws: ``DataStoreError/Code/invalidArgument`` when the name is empty or contains NUL.
    public static func validateItemType(_ name: String) throws {
        if name.isEmpty {
            throw DataStoreError.invalidArgument("the item type name is empty; give every item type a name")
        }
        if name.utf8.contains(0) {
            throw DataStoreError.invalidArgument("the item type name \(String(reflecting: name)) contains a NUL character")
        }
    }

    /// Checks an attribute name.
    ///
    /// - Throws: ``DataStoreError/Code/invalidArgument`` when the name is empty or contains NUL.
    public static func validateAttribute(_ name: String, of itemType: String) throws {
        if name.isEmpty {
            throw DataStoreError.invalidArgument("an attribute of \(itemType) has an empty name")
        }
        if name.utf8.contains(0) {
            throw DataStoreError.invalidArgument(
                "the attribute name \(String(reflecting: name)) of \(itemType) contains a NUL character")
        }
    }

    /// Checks an item's type name and every attribute name.
    public static func validate(_ item: Item) throws {
        try validateItemType(item.itemType)
        for name in item.attributes.keys {
            try validateAttribute(name, of: item.itemType)
        }
    }
}
