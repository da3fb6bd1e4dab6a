/// A filter through relations: keeps the items whose item reached by following ``relations``
/// (from each item to the item it refers to, then from that one, and so on) matches
/// ``predicate``. ``DataStoreRequest/relatedFilters`` holds them; every one must hold.
///
/// ```swift
/// // Tracks whose album's artist is AC/DC.
/// var request = DataStoreRequest(itemType: "Track")
/// request.relatedFilters = [RelatedFilter(via: [trackAlbum, albumArtist], where: .attribute("name") == "AC/DC")]
/// ```
///
/// Every store answers it in one query per relation followed, then the request's own: the
/// identifiers the last relation reaches narrow the one before (<doc:Relations>).
public struct RelatedFilter: Sendable, Hashable, CustomStringConvertible {
    /// The relations followed, the first from the request's item type, each next one from the
    /// type the one before refers to.
    public var relations: [DataStoreRelation]
    /// What the item reached must match.
    public var predicate: DataStorePredicate

    /// A filter following `relations` to items that match `predicate`.
    ///
    /// ```swift
    /// let byAlbumTitle = RelatedFilter(via: [trackAlbum], where: .attribute("title") == "Let There Be Rock")
    /// ```
    public init(via relations: [DataStoreRelation], where predicate: DataStorePredicate) {
        self.relations = relations
        self.predicate = predicate
    }

    /// A readable rendering: `via Track_albumId_fkey → Album_artistId_fkey where name == "AC/DC"`.
    public var description: String {
        "via \(relations.map(\.name).joined(separator: " → ")) where \(predicate)"
    }

    /// Checks that the relations chain from `itemType`, and the names in the predicate; returns
    /// the type the last relation reaches.
    func validate(from itemType: String) throws -> String {
        guard !relations.isEmpty else {
            throw DataStoreError.invalidArgument("a related filter of \(itemType) names no relation to follow (\(self))")
        }
        var current = itemType
        for relation in relations {
            guard relation.itemType == current else {
                throw DataStoreError.invalidArgument(
                    "the related filter \(self) follows \(relation.name) (\(relation)) from \(current), whose items do not "
                        + "refer through it; each relation must start at the type the one before refers to")
            }
            current = relation.relatedType
        }
        for name in predicate.attributeNames { try NameRules.validateAttribute(name, of: current) }
        return current
    }
}

extension DataStoreRelation {
    /// A filter selecting the items of ``itemType`` that refer to one of `ids`, for a relation
    /// whose referring attributes are all attributes of the items (no key columns).
    func referrersFilter(for ids: [ItemID]) -> DataStorePredicate {
        if attributes.count == 1 { return .isIn(attribute: attributes[0], ids.map(\.value)) }
        let terms = ids.compactMap { referrerSelection(for: $0)?.filter }
        guard var filter = terms.first else { return .isIn(attribute: attributes[0], []) }
        for term in terms.dropFirst() { filter = .or(filter, term) }
        return filter
    }
}
