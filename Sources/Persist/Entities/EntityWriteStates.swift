/// What a write block keeps per entity type for typed writes: the type's encoder (which holds the
/// plan and a reusable row buffer) and the engine's sink for the type, both made once per block.
struct EntityWriteStates {
    private var states: [ObjectIdentifier: EntityWriteState] = [:]
    /// The state used last, looked at before the dictionary (a block usually writes one type).
    private var last: (type: ObjectIdentifier, state: EntityWriteState)?
    /// The writer's row hook, looked up once per block.
    private var rows: (any EntityRowWriting)?

    /// The state of `type`, made on first use in the block.
    mutating func state<E: DataStoreEntity>(for type: E.Type, writer: any StoreWriter) -> EntityWriteState {
        if let last, last.type == ObjectIdentifier(type) { return last.state }
        if let state = states[ObjectIdentifier(type)] {
            last = (ObjectIdentifier(type), state)
            return state
        }
        let hook = rows ?? writer.entityRowWriting ?? GeneralEntityRows(writer: writer)
        rows = hook
        let state = EntityWriteState(
            encoder: EntityRowEncoder(plan: EntityPlans.plan(for: type), for: type), sink: hook.entityRowSink(forType: E.itemType))
        states[ObjectIdentifier(type)] = state
        last = (ObjectIdentifier(type), state)
        return state
    }
}

/// One entity type's encoder and sink within a write block.
final class EntityWriteState {
    private(set) var encoder: EntityRowEncoder
    let sink: any EntityRowSink

    init(encoder: EntityRowEncoder, sink: any EntityRowSink) {
        self.encoder = encoder
        self.sink = sink
    }

    /// The row of `entity`, valid until the next call; `nil` when the entity must take the
    /// general path. A key the plan lacks extends the plan, and the entity is encoded again.
    func row<E: DataStoreEntity>(of entity: E) -> EntityRow? {
        switch encoder.encode(entity) {
        case .row(let row):
            return row
        case .general:
            return nil
        case .extend(let additions):
            let extended = EntityPlans.extend(E.self, from: encoder.plan, adding: additions)
            guard !extended.isIrregular, extended !== encoder.plan else { return nil }
            encoder = EntityRowEncoder(plan: extended, for: E.self)
            guard case .row(let row) = encoder.encode(entity) else { return nil }
            return row
        }
    }
}
