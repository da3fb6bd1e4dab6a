import Persist

/// A stored item as an entity row: decoding reads the plan's slots from the item's attributes.
final class JSONFileRowSource: EntityRowSource {
    /// The item the source is at.
    var current = Item(itemType: "", id: 0)

    func identifier() throws -> ItemID { current.id }

    func columns(for plan: EntityPlan) -> any EntityRowColumns {
        JSONFileRowColumns(source: self, plan: plan)
    }

    func fill(_ values: UnsafeMutableBufferPointer<Value>, for plan: EntityPlan) throws -> Bool {
        for slot in plan.attributeSlots { values[slot] = current[plan.names[slot]] ?? .null }
        // The item has attributes outside the plan when it has more than the slots that found one.
        return current.attributes.count > plan.attributeSlots.count { !values[$0].isNull }
    }

    func value(named name: String) throws -> Value? { current[name] }

    func item() throws -> Item { current }

    /// Nothing to check: the item's values were decoded when the file was read.
    func checkUnread(_ read: UInt64, for plan: EntityPlan) throws {}
}

/// The slots of one plan in the item a source is at. It gives no shortcuts: every value is read
/// through `value(atSlot:)`.
final class JSONFileRowColumns: EntityRowColumns {
    private let source: JSONFileRowSource
    private let plan: EntityPlan

    init(source: JSONFileRowSource, plan: EntityPlan) {
        self.source = source
        self.plan = plan
    }

    func value(atSlot slot: Int) throws -> Value {
        source.current[plan.names[slot]] ?? .null
    }
}
