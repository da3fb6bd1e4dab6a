/// Renames and drops applied to items while a ``Migration`` copies them: item types renamed,
/// attributes renamed or left out.
///
/// ```swift
/// var options = MigrationOptions()
/// options.reshape = MigrationReshape([
///     .renameType("Note", to: "Memo"),
///     .renameAttribute("titel", ofType: "Note", to: "title"),
///     .dropAttribute("legacyFlags", ofType: "Note"),
/// ])
/// let report = try Migration(source: old, target: new, options: options).run()
/// print(report.unusedRules)   // rules that matched no item, such as a misspelt attribute
/// ```
///
/// Every rule names the type and the attributes **as the source has them**, and the rules apply
/// together: `a → b` with `b → a` swaps two attributes, and renaming an attribute to the name of one
/// that is dropped replaces it. The rules are checked before anything is read
/// (``validate()``); an item that would end up with two attributes of one name (an attribute renamed
/// to a name the item already has) stops the run with ``DataStoreError/Code/invalidArgument``
/// naming the item. Migration applies the rules to rows of a shape once and reuses the result, so
/// a reshape costs about nothing per item.
public struct MigrationReshape: Sendable, Hashable {
    /// One rule.
    public enum Rule: Sendable, Hashable, CustomStringConvertible {
        /// Items of the first type are written as items of the second.
        case renameType(String, to: String)
        /// The attribute, in items of the type, is written under the new name.
        case renameAttribute(String, ofType: String, to: String)
        /// The attribute, in items of the type, is left out.
        case dropAttribute(String, ofType: String)

        /// The rule as `persist-migrate` spells it, such as `--rename-attribute Note.titel=title`.
        public var description: String {
            switch self {
            case .renameType(let old, let new): "--rename-type \(old)=\(new)"
            case .renameAttribute(let old, let itemType, let new): "--rename-attribute \(itemType).\(old)=\(new)"
            case .dropAttribute(let name, let itemType): "--drop-attribute \(itemType).\(name)"
            }
        }

        /// The source type the rule applies to.
        public var sourceType: String {
            switch self {
            case .renameType(let itemType, _), .renameAttribute(_, let itemType, _), .dropAttribute(_, let itemType):
                itemType
            }
        }
    }

    /// The rules, in the order given.
    public var rules: [Rule]

    /// A reshape made of `rules`.
    public init(_ rules: [Rule] = []) {
        self.rules = rules
    }

    /// Whether there is nothing to do.
    public var isEmpty: Bool { rules.isEmpty }

    /// The name items of `sourceType` get in the target.
    public func targetType(of sourceType: String) -> String {
        for case .renameType(let old, let new) in rules where old == sourceType { return new }
        return sourceType
    }

    /// Checks the rules on their own: every name follows the rules every store applies, no type
    /// or attribute is renamed twice or renamed and dropped, no two renames give one name, and
    /// nothing is renamed to itself.
    ///
    /// - Throws: ``DataStoreError/Code/invalidArgument`` saying which rule is wrong.
    public func validate() throws {
        var typeRenames: [String: String] = [:]
        var attributeRules: [String: [String: Rule]] = [:]
        func refuse(_ rule: Rule, _ problem: String) -> DataStoreError {
            DataStoreError.invalidArgument("\(rule): \(problem)")
        }
        func checkNames(_ rule: Rule, _ body: () throws -> Void) throws {
            do { try body() } catch let error as DataStoreError { throw refuse(rule, error.message) }
        }
        for rule in rules {
            switch rule {
            case .renameType(let old, let new):
                try checkNames(rule) {
                    try NameRules.validateItemType(old)
                    try NameRules.validateItemType(new)
                }
                if old == new { throw refuse(rule, "the type is renamed to itself") }
                if let earlier = typeRenames[old] { throw refuse(rule, "\(old) is already renamed to \(earlier)") }
                if let other = typeRenames.first(where: { $0.value == new }) {
                    throw refuse(rule, "\(other.key) is renamed to \(new) too; two types cannot become one")
                }
                typeRenames[old] = new
            case .renameAttribute(let old, let itemType, let new):
                try checkNames(rule) {
                    try NameRules.validateItemType(itemType)
                    try NameRules.validateAttribute(old, of: itemType)
                    try NameRules.validateAttribute(new, of: itemType)
                }
                if old == new { throw refuse(rule, "the attribute is renamed to itself") }
                var rulesOfType = attributeRules[itemType, default: [:]]
                if let earlier = rulesOfType[old] { throw refuse(rule, "\(earlier) already applies to \(itemType).\(old)") }
                for case .renameAttribute(let otherOld, _, let otherNew) in rulesOfType.values where otherNew == new {
                    throw refuse(rule, "\(itemType).\(otherOld) is renamed to \(new) too; two attributes cannot become one")
                }
                rulesOfType[old] = rule
                attributeRules[itemType] = rulesOfType
            case .dropAttribute(let name, let itemType):
                try checkNames(rule) {
                    try NameRules.validateItemType(itemType)
                    try NameRules.validateAttribute(name, of: itemType)
                }
                if let earlier = attributeRules[itemType]?[name] {
                    throw refuse(rule, "\(earlier) already applies to \(itemType).\(name)")
                }
                attributeRules[itemType, default: [:]][name] = rule
            }
        }
    }

    /// Checks the rules against the types of the source a migration copies (every type, or those
    /// ``MigrationOptions/itemTypes`` names): a type may not be renamed to the name of another type
    /// copied (whose items would mix with the renamed ones). A type left out of the copy is no
    /// obstacle, so `Note → Memo` with only `Note` copied is fine in a source that holds `Memo` too.
    ///
    /// - Throws: ``DataStoreError/Code/invalidArgument`` naming the rule.
    public func validate(sourceTypes: [String]) throws {
        let renamedAway = Set(rules.compactMap { rule -> String? in
            if case .renameType(let old, _) = rule { return old }
            return nil
        })
        let kept = Set(sourceTypes).subtracting(renamedAway)
        for case .renameType(let old, let new) in rules where kept.contains(new) {
            throw DataStoreError.invalidArgument(
                "\(Rule.renameType(old, to: new)): the source already has items of type \(new); two types cannot become one")
        }
    }

    /// The item as the rules make it.
    ///
    /// ```swift
    /// let reshape = MigrationReshape([.renameAttribute("titel", ofType: "Note", to: "title")])
    /// let item = Item(itemType: "Note", id: .int(1), attributes: ["titel": "Hello"])
    /// try reshape.apply(to: item)   // Note 1 with ["title": "Hello"]
    /// ```
    ///
    /// - Throws: ``DataStoreError/Code/invalidArgument`` when an attribute would be renamed to a
    ///   name the item already has.
    public func apply(to item: Item) throws -> Item {
        let plan = plan(for: item.itemType, names: item.attributes.keys.sorted())
        if let collision = plan.collision { throw collision.error(item.reference) }
        var attributes: [String: Value] = [:]
        attributes.reserveCapacity(item.attributes.count)
        for (name, value) in item.attributes {
            guard let newName = plan.newNames[name] else { continue }
            attributes[newName] = value
        }
        return Item(itemType: plan.itemType, id: item.id, attributes: attributes)
    }

    /// What the rules do to items of one type with the given attribute names.
    package struct Plan {
        /// The type in the target.
        package var itemType: String
        /// The name in the target of each kept attribute.
        package var newNames: [String: String]
        /// The rules that apply to such items.
        var used: [Rule]
        /// Two attributes that would share a name.
        package var collision: Collision?
    }

    /// An attribute renamed to a name the item already has.
    package struct Collision: Sendable {
        package let rule: Rule
        package let name: String

        func error(_ item: ItemReference) -> DataStoreError {
            DataStoreError(.invalidArgument,
                           "\(rule) cannot be applied to \(item): it already has an attribute \(String(reflecting: name))",
                           items: [item])
        }
    }

    package func plan(for itemType: String, names: [String]) -> Plan {
        var plan = Plan(itemType: itemType, newNames: [:], used: [])
        var renames: [String: (String, Rule)] = [:]
        var drops: [String: Rule] = [:]
        for rule in rules where rule.sourceType == itemType {
            switch rule {
            case .renameType(_, let new):
                plan.itemType = new
                plan.used.append(rule)
            case .renameAttribute(let old, _, let new):
                renames[old] = (new, rule)
            case .dropAttribute(let name, _):
                drops[name] = rule
            }
        }
        var taken: [String: String] = [:]
        for name in names {
            if let drop = drops[name] {
                plan.used.append(drop)
                continue
            }
            var newName = name
            if let (renamed, rule) = renames[name] {
                newName = renamed
                plan.used.append(rule)
            }
            if let other = taken[newName] {
                let rule = renames[name]?.1 ?? renames[other]?.1
                if let rule, plan.collision == nil { plan.collision = Collision(rule: rule, name: newName) }
            }
            taken[newName] = name
            plan.newNames[name] = newName
        }
        return plan
    }
}
