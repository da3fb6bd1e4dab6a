import Foundation
import Persist

/// A pure-Swift model of the relation contract (the Relations article of Persist's documentation), for
/// the relation differential test: items by type, the writes of a block with the delete rules
/// applied at once and transitively, the references a block's end checks, and the reads that
/// follow relations.
///
/// A block that starts from items whose references hold commits exactly when every reference
/// holds when it ends (``brokenReferrers()`` is empty); otherwise it fails with
/// `referenceViolation` and nothing of it is kept.
///
/// ```swift
/// var model = ReferenceRelations(relations: [trackAlbum], items: try allItems(store, "Album"))
/// model.delete(ItemReference(itemType: "Album", id: 1))   // cascades, nullifies, or leaves a deny
/// let commits = model.brokenReferrers().isEmpty
/// ```
public struct ReferenceRelations: Sendable, Equatable {
    /// The declared relations.
    public let relations: [DataStoreRelation]
    /// The items by type, then by identifier.
    public private(set) var itemsByType: [String: [ItemID: Item]] = [:]

    /// A model of `relations` holding `items`.
    public init(relations: [DataStoreRelation], items: [Item] = []) {
        self.relations = relations
        for item in items { itemsByType[item.itemType, default: [:]][item.id] = item }
    }

    /// The item `reference` names, if the model holds it.
    public func item(_ reference: ItemReference) -> Item? {
        itemsByType[reference.itemType]?[reference.id]
    }

    /// The items of `itemType`, in identifier order.
    public func items(ofType itemType: String) -> [Item] {
        ReferenceEvaluator.evaluate(DataStoreRequest(itemType: itemType), over: Array((itemsByType[itemType] ?? [:]).values))
    }

    /// The items `request` selects, its related filters included, in its order.
    public func items(forRequest request: DataStoreRequest) -> [Item] {
        let candidates = (itemsByType[request.itemType] ?? [:]).values.filter { item in
            request.relatedFilters.allSatisfy { reaches(item, $0) }
        }
        var plain = request
        plain.relatedFilters = []
        return ReferenceEvaluator.evaluate(plain, over: candidates)
    }

    private func reaches(_ item: Item, _ filter: RelatedFilter) -> Bool {
        var current = item
        for relation in filter.relations {
            guard let next = relatedItem(of: current, via: relation) else { return false }
            current = next
        }
        return ReferenceEvaluator.holds(filter.predicate, current)
    }

    // MARK: Writes

    /// Stores `item`, replacing an item of its identifier (`insert` and `save` alike).
    public mutating func store(_ item: Item) {
        itemsByType[item.itemType, default: [:]][item.id] = item
    }

    /// Deletes the item `reference` names, applying the delete rules; whether it was held.
    @discardableResult
    public mutating func delete(_ reference: ItemReference) -> Bool {
        guard item(reference) != nil else { return false }
        delete(ofType: reference.itemType, ids: [reference.id])
        return true
    }

    /// Deletes the items `request` selects, applying the delete rules; how many it selected.
    public mutating func deleteItems(forRequest request: DataStoreRequest) -> Int {
        let ids = items(forRequest: request).map(\.id)
        delete(ofType: request.itemType, ids: ids)
        return ids.count
    }

    /// Sets `values` in the items `request` selects (`.null` removes); how many it selected.
    public mutating func updateItems(forRequest request: DataStoreRequest, setting values: [String: Value]) -> Int {
        let selected = items(forRequest: request)
        for item in selected { store(item.setting(values)) }
        return selected.count
    }

    /// Deletes `ids` of `itemType` and, by the rules of the relations to each deleted item,
    /// deletes the items that refer to it (`.cascade`, transitively) or clears their referring
    /// attributes (`.nullify`). A `.deny` rule changes nothing here: the block's end checks it.
    private mutating func delete(ofType itemType: String, ids: [ItemID]) {
        var pending = ids.map { ItemReference(itemType: itemType, id: $0) }
        var doomed = Set(pending)
        var order: [ItemReference] = []
        while let next = pending.popLast() {
            order.append(next)
            for relation in relations where relation.relatedType == next.itemType {
                for referrer in referrers(of: next.id, via: relation) {
                    switch relation.onDelete {
                    case .cascade:
                        if doomed.insert(referrer.reference).inserted { pending.append(referrer.reference) }
                    case .nullify:
                        store(referrer.setting(Dictionary(uniqueKeysWithValues: relation.attributes.map { ($0, Value.null) })))
                    default:
                        break
                    }
                }
            }
        }
        for reference in order { itemsByType[reference.itemType]?[reference.id] = nil }
    }

    // MARK: References

    /// What an item's referring attributes hold for one relation.
    public enum Referred: Sendable, Equatable {
        /// A referring attribute is missing: the item refers to nothing.
        case nothing
        /// The identifier referred to.
        case id(ItemID)
        /// A referring attribute holds a value no identifier can be.
        case notAnIdentifier
    }

    /// What `item` refers to through `relation`.
    public static func referred(by item: Item, via relation: DataStoreRelation) -> Referred {
        var components: [ItemID] = []
        for name in relation.attributes {
            guard let value = item[name] else { return .nothing }
            guard let component = ItemID(value) else { return .notAnIdentifier }
            components.append(component)
        }
        return .id(components.count == 1 ? components[0] : .composite(components))
    }

    /// The item `item` refers to through `relation`; `nil` when it refers to nothing or to an
    /// item the model does not hold.
    public func relatedItem(of item: Item, via relation: DataStoreRelation) -> Item? {
        guard case .id(let id) = Self.referred(by: item, via: relation) else { return nil }
        return self.item(ItemReference(itemType: relation.relatedType, id: id))
    }

    /// The items that refer to `id` through `relation`, in identifier order.
    public func referrers(of id: ItemID, via relation: DataStoreRelation) -> [Item] {
        items(ofType: relation.itemType).filter { Self.referred(by: $0, via: relation) == .id(id) }
    }

    /// The items whose reference through some relation is broken: to an item the model does not
    /// hold, or through a value no identifier can be. Empty when a block ending here commits.
    public func brokenReferrers() -> Set<ItemReference> {
        var broken: Set<ItemReference> = []
        for relation in relations {
            for item in (itemsByType[relation.itemType] ?? [:]).values {
                switch Self.referred(by: item, via: relation) {
                case .nothing:
                    continue
                case .notAnIdentifier:
                    broken.insert(item.reference)
                case .id(let id):
                    if self.item(ItemReference(itemType: relation.relatedType, id: id)) == nil { broken.insert(item.reference) }
                }
            }
        }
        return broken
    }
}
