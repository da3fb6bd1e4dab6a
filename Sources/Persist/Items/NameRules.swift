import Foundation

/// The rules every store applies to item type and attribute names, so that a name accepted by one
/// store is accepted by all: a name is not empty and contains no NUL character.
///
/// ```swift
/// try NameRules.validateItemType("Restaurant")   // fine
/// try NameRules.validateItemType("")             // throws invalidArgument
/// ```
package enum NameRules {
    /// Checks an item type name.
    ///
    /// - Throws: ``DataStoreError/Code/invalidArgument`` when the name is empty or contains NUL.
    package static func validateItemType(_ name: String) throws {
        if name.isEmpty {
            throw DataStoreError.invalidArgument("the item type name is empty; give every item type a name")
        }
        if containsNUL(name) {
            throw DataStoreError.invalidArgument("the item type name \(String(reflecting: name)) contains a NUL character")
        }
    }

    /// Checks an attribute name.
    ///
    /// - Throws: ``DataStoreError/Code/invalidArgument`` when the name is empty or contains NUL.
    package static func validateAttribute(_ name: String, of itemType: String) throws {
        if let problem = problem(withAttribute: name, of: itemType) { throw DataStoreError.invalidArgument(problem) }
    }

    /// What is wrong with an attribute name of `owner` (an item type, or an item), if anything.
    private static func problem(withAttribute name: String, of owner: String) -> String? {
        if name.isEmpty { return "an attribute of \(owner) has an empty name" }
        if containsNUL(name) { return "the attribute name \(String(reflecting: name)) of \(owner) contains a NUL character" }
        return nil
    }

    /// Checks an item's type name, every attribute name, and that no value nests arrays and
    /// objects deeper than ``BinaryValueCoding/maximumDepth`` levels (which some stores could
    /// write but not read back).
    package static func validate(_ item: Item) throws {
        try validateItemType(item.itemType)
        if case .composite = item.id { try validateIdentifier(item.id, of: item.itemType) }
        for (name, value) in item.attributes {
            // The reference is written only for a name that fails: this runs for every attribute.
            if name.isEmpty || containsNUL(name), let problem = problem(withAttribute: name, of: item.reference.description) {
                throw DataStoreError(.invalidArgument, problem, items: [item.reference])
            }
            if case .array = value, value.nestingDepth > BinaryValueCoding.maximumDepth {
                throw tooDeep(name, item)
            }
            if case .object = value, value.nestingDepth > BinaryValueCoding.maximumDepth {
                throw tooDeep(name, item)
            }
        }
    }

    /// Checks that a composite identifier (which `ItemID.composite` can build without the checks
    /// of `ItemID(components:)`) has two or more components, none of them composite.
    ///
    /// - Throws: ``DataStoreError/Code/invalidArgument`` naming the item otherwise.
    package static func validateIdentifier(_ id: ItemID, of itemType: String) throws {
        guard case .composite(let components) = id else { return }
        let reference = ItemReference(itemType: itemType, id: id)
        if components.count < 2 {
            throw DataStoreError(
                .invalidArgument,
                "the identifier of \(reference) is composite with \(components.count) component\(components.count == 1 ? "" : "s");"
                    + " a composite identifier needs at least two (use the component itself for one)",
                items: [reference])
        }
        if components.contains(where: \.isComposite) {
            throw DataStoreError(
                .invalidArgument, "the identifier of \(reference) nests a composite identifier in a composite one; flatten it",
                items: [reference])
        }
    }

    /// Whether `name` contains U+0000, looked for with `memchr` in the string's own bytes.
    private static func containsNUL(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, 0, bytes.count) != nil
        }
    }

    private static func tooDeep(_ name: String, _ item: Item) -> DataStoreError {
        DataStoreError(
            .invalidArgument,
            "the attribute \(String(reflecting: name)) of \(item.reference) nests arrays and objects more than "
                + "\(BinaryValueCoding.maximumDepth) levels deep; flatten it",
            items: [item.reference])
    }
}
