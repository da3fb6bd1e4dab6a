/// The checks a relation's declaration and its use pass before anything is read or written.
enum RelationRules {
    /// Checks names and attributes, and compares `relation` with the relations the store has:
    /// returns the one that already makes the same promise, `nil` when it is new. Type names
    /// match as the store matches them (`byBytes`: see ``StoreReader/comparesTypeNamesByBytes``).
    ///
    /// - Throws: ``DataStoreError/Code/invalidArgument`` for invalid names, no or repeated
    ///   attributes, a name the type's relations already use with other rules, or a `.cascade`
    ///   rule that closes a cycle through two or more types.
    static func checkDeclaration(_ relation: DataStoreRelation, among existing: [DataStoreRelation], byBytes: Bool)
        throws -> DataStoreRelation? {
        try NameRules.validateItemType(relation.itemType)
        try NameRules.validateItemType(relation.relatedType)
        guard !relation.attributes.isEmpty else {
            throw DataStoreError.invalidArgument("the relation \(relation.name) of \(relation.itemType) needs at least one attribute")
        }
        guard !relation.name.isEmpty else {
            throw DataStoreError.invalidArgument("a relation of \(relation.itemType) needs a name that is not empty")
        }
        var seen: Set<String> = []
        for name in relation.attributes {
            try NameRules.validateAttribute(name, of: relation.itemType)
            guard seen.insert(name).inserted else {
                throw DataStoreError.invalidArgument(
                    "the relation \(relation.name) names the attribute \(NameSpellings.describe(name)) of \(relation.itemType) twice")
            }
        }
        if case .engineAction(let action) = relation.onDelete {
            throw DataStoreError.invalidArgument(
                "the relation \(relation.name) asks for the delete action \(action), which only an adopted foreign key "
                    + "keeps; declare .deny, .cascade or .nullify")
        }
        func sameType(_ lhs: String, _ rhs: String) -> Bool {
            TypeNameKey(name: lhs, byBytes: byBytes) == TypeNameKey(name: rhs, byBytes: byBytes)
        }
        func sameRules(_ other: DataStoreRelation) -> Bool {
            other.hasSameRules(as: relation) && sameType(other.itemType, relation.itemType)
                && sameType(other.relatedType, relation.relatedType)
        }
        let ofType = existing.filter { sameType($0.itemType, relation.itemType) }
        if let named = ofType.first(where: { $0.name == relation.name }) {
            guard sameRules(named) else {
                throw DataStoreError.invalidArgument(
                    "\(relation.itemType) already has a relation named \(relation.name) with other rules (\(named)); "
                        + "give the new relation (\(relation)) another name")
            }
            return named
        }
        if let same = ofType.first(where: sameRules) { return same }
        try checkCascadeCycle(relation, among: existing)
        return nil
    }

    /// Refuses a `.cascade` relation that would close a cycle of `.cascade` rules through two or
    /// more types: deleting any item of the cycle could then delete items of every type on it,
    /// which PostgreSQL and SQLite carry out but other engines refuse to declare. A relation of a
    /// type to itself (a tree) is allowed.
    static func checkCascadeCycle(_ relation: DataStoreRelation, among existing: [DataStoreRelation]) throws {
        guard relation.onDelete == .cascade, relation.itemType != relation.relatedType else { return }
        // Deleting an item of `relatedType` deletes items of `itemType`; a cycle needs a way back.
        var cascades: [String: [DataStoreRelation]] = [:]
        for other in existing where other.onDelete == .cascade && other.itemType != other.relatedType {
            cascades[other.relatedType, default: []].append(other)
        }
        var path: [DataStoreRelation] = []
        var visited: Set<String> = []
        func reaches(_ type: String) -> Bool {
            if type == relation.relatedType { return true }
            guard visited.insert(type).inserted else { return false }
            for next in cascades[type] ?? [] {
                path.append(next)
                if reaches(next.itemType) { return true }
                path.removeLast()
            }
            return false
        }
        guard reaches(relation.itemType) else { return }
        let cycle = ([relation] + path).map(\.name).joined(separator: " → ")
        throw DataStoreError.invalidArgument(
            "the relation \(relation.name) (\(relation)) would close a cycle of cascading deletes (\(cycle)); "
                + "declare one relation of the cycle .deny or .nullify")
    }

    /// Refuses following `relation` from an item of another type.
    static func checkFollowed(_ relation: DataStoreRelation, from item: Item) throws {
        guard item.itemType == relation.itemType else {
            throw DataStoreError.invalidArgument(
                "the relation \(relation.name) (\(relation)) refers from items of \(relation.itemType), not from "
                    + "\(item.reference)")
        }
    }

    /// Refuses following `relation` back to an item of another type.
    static func checkFollowed(_ relation: DataStoreRelation, to reference: ItemReference) throws {
        guard reference.itemType == relation.relatedType else {
            throw DataStoreError.invalidArgument(
                "the relation \(relation.name) (\(relation)) refers to items of \(relation.relatedType), not to \(reference)")
        }
    }

    /// Refuses a relation whose attributes cannot hold the related type's identifiers: another
    /// number of attributes than `sample` has components, or a stored value of another kind than
    /// the component it would hold.
    static func checkShape(_ relation: DataStoreRelation, sample: ItemID, referrer: Item?) throws {
        let components = sample.components
        guard components.count == relation.attributes.count else {
            throw DataStoreError.invalidArgument(
                "the relation \(relation.name) names \(relation.attributes.count) attribute(s) of \(relation.itemType), "
                    + "but the identifiers of \(relation.relatedType) have \(components.count) component(s) "
                    + "(\(ItemReference(itemType: relation.relatedType, id: sample)))")
        }
        guard let referrer else { return }
        for (name, component) in zip(relation.attributes, components) {
            guard let value = referrer.attributes[name], value != .null, let held = ItemID(value) else { continue }
            guard kind(of: held) == kind(of: component) else {
                throw DataStoreError.invalidArgument(
                    "the relation \(relation.name) cannot hold the identifiers of \(relation.relatedType) in \(name): "
                        + "\(referrer.reference) holds \(value) there, and \(relation.relatedType)'s identifiers hold "
                        + "\(kind(of: component)) values (\(ItemReference(itemType: relation.relatedType, id: sample)))")
            }
        }
    }

    private static func kind(of id: ItemID) -> String {
        switch id {
        case .int: "integer"
        case .string: "string"
        case .bytes: "bytes"
        case .composite: "composite"
        }
    }
}
