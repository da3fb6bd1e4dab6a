/// One entity encoded through its ``EntityPlan``: the identifier, and one value per slot of the
/// plan, `.null` where the entity has no value (a `nil` optional, or a key it did not encode).
///
/// The values live in the encoder's buffer: a row is valid only during the call it is passed to.
/// Rows reaching an engine have valid attribute names and values nested no deeper than
/// ``BinaryValueCoding/maximumDepth``, exactly as ``NameRules/validate(_:)`` would require of the
/// equivalent item.
package struct EntityRow {
    /// The plan the values are laid out by.
    package let plan: EntityPlan
    /// The identifier.
    package let id: ItemID
    /// One value per slot of ``plan``; the identifier's slot holds the identifier's value.
    package let values: UnsafeBufferPointer<Value>

    package init(plan: EntityPlan, id: ItemID, values: UnsafeBufferPointer<Value>) {
        self.plan = plan
        self.id = id
        self.values = values
    }

    /// The reference naming the row's item.
    package var reference: ItemReference { ItemReference(itemType: plan.itemType, id: id) }

    /// The item the row stands for: exactly what `makeItem()` gives for the same entity.
    package func item() -> Item {
        var attributes: [String: Value] = Dictionary(minimumCapacity: plan.attributeSlots.count)
        for slot in plan.attributeSlots where !values[slot].isNull {
            attributes[plan.names[slot]] = values[slot]
        }
        return Item(itemType: plan.itemType, id: id, attributes: attributes)
    }
}
