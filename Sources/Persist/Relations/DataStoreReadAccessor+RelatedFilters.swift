extension DataStoreReadAccessor {
    /// `request`, validated, with its related filters turned into a filter the engine evaluates:
    /// the identifiers each relation reaches, read from the last relation back to the first, one
    /// query each, narrow the referring attributes of the one before.
    func prepared(_ request: DataStoreRequest) throws -> DataStoreRequest {
        try context.locating { try request.validate() }
        guard !request.relatedFilters.isEmpty else { return request }
        var resolved = request
        resolved.relatedFilters = []
        for related in request.relatedFilters {
            _ = try context.locating { try related.validate(from: request.itemType) }
            var narrowing = related.predicate
            for relation in related.relations.reversed() {
                if try referringShape(of: relation).usesKey {
                    throw DataStoreError(
                        .invalidArgument, "the related filter \(related) follows \(relation.name) (\(relation)), which "
                            + "refers through key columns of \(relation.itemType); filter the related items with "
                            + "items(relatedTo:via:) instead", path: context.location)
                }
                var step = DataStoreRequest(itemType: relation.relatedType)
                step.filter = narrowing
                step.ordering = .unspecified
                var ids: [ItemID] = []
                try context.locating {
                    try reader.forEachItem(matching: step) { item in
                        ids.append(item.id)
                        return true
                    }
                }
                narrowing = relation.referrersFilter(for: ids)
            }
            resolved.filter = resolved.filter.map { .and($0, narrowing) } ?? narrowing
        }
        return resolved
    }
}
