extension Migration {
    /// The relations a run declares on the target, as the target names them, and a sentence for
    /// each relation of the source it leaves out.
    struct CarriedRelations {
        var relations: [DataStoreRelation] = []
        /// A sentence for each relation left out or changed.
        var leftOut: [String] = []
    }

    /// The source's relations among the copied types, renamed by the reshape. A run that decodes
    /// or transforms items may write items of any shape, so it carries none.
    func carriedRelations(of chosen: [String]?) throws -> CarriedRelations {
        let all = try source.read { accessor in try accessor.currentRelations() }
        var carried = CarriedRelations()
        guard !all.isEmpty else { return carried }
        guard options.carriesRelations else {
            carried.leftOut = ["\(all.count) relation(s) of the source were not carried, as asked ("
                               + all.map(\.name).joined(separator: ", ") + "); the target does not check references"]
            return carried
        }
        guard options.transform == nil, options.decode == nil else {
            carried.leftOut = all.map {
                "the relation \($0.name) (\($0)) was not carried: a copy that decodes or transforms items carries no relation"
            }
            return carried
        }
        let copied = chosen.map(Set.init)
        for relation in all {
            if let copied, let missing = [relation.itemType, relation.relatedType].first(where: { !copied.contains($0) }) {
                carried.leftOut.append("the relation \(relation.name) (\(relation)) was not carried: \(missing) is not copied")
                continue
            }
            let plan = options.reshape.plan(for: relation.itemType, names: relation.attributes)
            let attributes = relation.attributes.compactMap { plan.newNames[$0] }
            guard attributes.count == relation.attributes.count else {
                carried.leftOut.append("the relation \(relation.name) (\(relation)) was not carried: the copy drops one of "
                                       + "its attributes")
                continue
            }
            var rule = relation.onDelete
            if case .engineAction(let action) = rule {
                // The nearest rule every store keeps: the target refuses deleting a referred item.
                rule = .deny
                carried.leftOut.append("the relation \(relation.name) (\(relation)) was carried with the rule deny: "
                                       + "Persist declares no \(action)")
            }
            carried.relations.append(DataStoreRelation(
                itemType: plan.itemType, attributes: attributes, relatedType: options.reshape.targetType(of: relation.relatedType),
                onDelete: rule, name: relation.name))
        }
        return carried
    }

    /// Declares `relations` on the target through `accessor`, after the load. A relation the
    /// target's items break fails the run with ``DataStoreError/Code/referenceViolation`` naming
    /// the first broken reference.
    static func declare(_ relations: [DataStoreRelation], with accessor: DataStoreReadWriteAccessor) throws {
        for relation in relations {
            try accessor.ensureRelation(ofType: relation.itemType, on: relation.attributes, to: relation.relatedType,
                                        onDelete: relation.onDelete, name: relation.name)
        }
    }
}
