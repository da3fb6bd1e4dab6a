import Foundation
import Persist

extension ReferenceEvaluator {
    /// `items` after deleting what `request` selects, and how many that was.
    ///
    /// ```swift
    /// let (remaining, removed) = ReferenceEvaluator.deleting(request, from: items)
    /// ```
    public static func deleting(_ request: DataStoreRequest, from items: [Item]) -> (items: [Item], count: Int) {
        let doomed = Set(evaluate(request, over: items).map(\.reference))
        return (items.filter { !doomed.contains($0.reference) }, doomed.count)
    }

    /// `items` after setting `values` on what `request` selects (`.null` removes an attribute),
    /// and how many items that was.
    ///
    /// ```swift
    /// let (changed, count) = ReferenceEvaluator.updating(request, setting: ["done": true], in: items)
    /// ```
    public static func updating(_ request: DataStoreRequest, setting values: [String: Value], in items: [Item])
        -> (items: [Item], count: Int)
    {
        let chosen = Set(evaluate(request, over: items).map(\.reference))
        let changed = items.map { item -> Item in
            guard chosen.contains(item.reference) else { return item }
            var attributes = item.attributes
            for (name, value) in values { attributes[name] = value == .null ? nil : value }
            return Item(itemType: item.itemType, id: item.id, attributes: attributes)
        }
        return (changed, chosen.count)
    }
}
