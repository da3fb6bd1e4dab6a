/// One entity of a `synchronize` call, encoded once: as a row when its plan expresses it, as an
/// item otherwise.
struct EntitySynchronization<Entity: DataStoreEntity> {
    enum Form {
        /// The row's values, one per slot of the plan.
        case row(EntityPlan, [Value])
        case item(Item)
    }

    let entity: Entity
    let id: ItemID
    let form: Form

    /// The item the entity stands for.
    func item() throws -> Item {
        switch form {
        case .item(let item):
            return item
        case .row(let plan, let values):
            return values.withUnsafeBufferPointer { EntityRow(plan: plan, id: id, values: $0).item() }
        }
    }
}

/// Compares wanted entities with stored rows, as items compare: the same attributes with
/// identical values, and nothing else stored.
final class EntityRowComparison {
    private var buffer: UnsafeMutableBufferPointer<Value> = .allocate(capacity: 0)

    deinit {
        buffer.deinitialize()
        buffer.deallocate()
    }

    /// Whether the stored row holds exactly what `form` would store.
    func matches<E>(_ form: EntitySynchronization<E>.Form, _ source: any EntityRowSource) throws -> Bool {
        switch form {
        case .item(let item):
            return try source.item() == item
        case .row(let plan, let values):
            if buffer.count != values.count {
                buffer.deinitialize()
                buffer.deallocate()
                buffer = .allocate(capacity: values.count)
                buffer.initialize(repeating: .null)
            }
            if try source.fill(buffer, for: plan) { return false }
            for slot in plan.attributeSlots where buffer[slot] != values[slot] { return false }
            return true
        }
    }
}
