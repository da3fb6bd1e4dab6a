/// One entity encoded through its ``EntityPlan``: the identifier, and one value per slot of the
/// plan, `.null` where the entity has no value (a `nil` optional, or a key it did not encode).
///
/// The values live in the encoder's buffer: a row is valid only during the call it is passed to.
/// Rows reaching an engine have valid attribute names and values nested no deeper than
/// ``BinaryValueCoding/maximumDepth``, exactly as the library requires of the equivalent item.
///
/// ```swift
/// try writer.save(entityRow.item())   // what an EntityRowSink does on the general path
/// ```
public struct EntityRow {
    /// The plan the values are laid out by.
    ///
    /// ```swift
    /// let itemType = entityRow.plan.itemType
    /// ```
    public let plan: EntityPlan
    /// The identifier.
    ///
    /// ```swift
    /// let exists = try writer.item(ofType: entityRow.plan.itemType, id: entityRow.id) != nil
    /// ```
    public let id: ItemID
    /// One value per slot of ``plan``; the identifier's slot holds the identifier's value.
    ///
    /// ```swift
    /// for slot in entityRow.plan.attributeSlots where !entityRow.values[slot].isNull {
    ///     print(entityRow.plan.names[slot], entityRow.values[slot])
    /// }
    /// ```
    public let values: UnsafeBufferPointer<Value>

    package init(plan: EntityPlan, id: ItemID, values: UnsafeBufferPointer<Value>) {
        self.plan = plan
        self.id = id
        self.values = values
    }

    /// The reference naming the row's item.
    package var reference: ItemReference { ItemReference(itemType: plan.itemType, id: id) }

    /// The item the row stands for: exactly what `makeItem()` gives for the same entity.
    ///
    /// ```swift
    /// try writer.insert(entityRow.item())
    /// ```
    public func item() -> Item {
        var attributes: [String: Value] = Dictionary(minimumCapacity: plan.attributeSlots.count)
        for slot in plan.attributeSlots where !values[slot].isNull {
            attributes[plan.names[slot]] = values[slot]
        }
        return Item(itemType: plan.itemType, id: id, attributes: attributes)
    }
}
