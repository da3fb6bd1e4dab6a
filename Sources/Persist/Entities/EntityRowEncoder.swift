import Foundation

/// Encodes entities of one type into rows laid out by one ``EntityPlan``, reusing one buffer: the
/// state behind the `Encoder` handed to `encode(to:)` at the top level.
///
/// Top-level values go straight into their slots; nested values (structs, arrays, dictionaries)
/// are encoded by ``ValueEncoder``'s machinery, exactly as before. Anything the plan cannot
/// express exactly (a top-level unkeyed or single value, a nested container or super encoder at
/// the top level, a value nested too deep, an invalid name, a key spelled otherwise than the plan's
/// name Swift finds equal to it, a thrown error) makes the entity take
/// the general path, `makeItem()`, which gives the canonical item or error. A key the plan lacks
/// asks for an extended plan, and a new encoder for it.
///
/// The plan and the buffer never change (the hot path reads them without reference counting or
/// exclusivity checks); what changes from key to key is kept behind a pointer.
final class EntityRowEncoder {
    /// What one encoding found.
    enum Outcome {
        /// The row, valid until the next call.
        case row(EntityRow)
        /// The plan lacks these keys: extend it and encode again with an encoder for the new plan.
        case extend([EntityPlanAddition])
        /// The entity takes the general path.
        case general
    }

    private struct Position {
        /// The slot the next key is expected in.
        var cursor = 0
        /// The slot of the key met last (-1 before the first), which an addition is placed after.
        var previousSlot = -1
        var previousAddition: String?
        /// Keys the plan lacks, in the order met.
        var additions: [EntityPlanAddition] = []
        var isIrregular = false
        var usedKeyedContainer = false
        /// Whether an entity is being encoded (an `encode(to:)` that writes another entity of the
        /// same type through the same accessor must not reuse the buffer).
        var isEncoding = false
    }

    let plan: EntityPlan
    private let storage: UnsafeMutableBufferPointer<Value>
    private let position: UnsafeMutablePointer<Position>
    /// The top-level container handed out last (apart from ``Position``, which every entity resets).
    private let container: UnsafeMutablePointer<ReusableContainer>
    private let cell = EntityCoderCell.make()

    /// Whether the plan was made for the entity type's current names; a model whose type or key
    /// names are computed anew each time takes the general path.
    private let fitsEntity: Bool

    /// An encoder of `E` values through `plan`.
    init<E: DataStoreEntity>(plan: EntityPlan, for entity: E.Type) {
        self.plan = plan
        fitsEntity = plan.itemType == E.itemType && plan.idKey == E.idKey
        storage = .allocate(capacity: plan.names.count)
        storage.initialize(repeating: .null)
        position = .allocate(capacity: 1)
        position.initialize(to: Position())
        container = .allocate(capacity: 1)
        container.initialize(to: ReusableContainer())
    }

    deinit {
        storage.deinitialize()
        storage.deallocate()
        position.deinitialize(count: 1)
        position.deallocate()
        container.deinitialize(count: 1)
        container.deallocate()
        cell.recycle()
    }

    /// Encodes `entity` through the plan; `E` is the type the encoder was made for.
    func encode<E: DataStoreEntity>(_ entity: E) -> Outcome {
        if !fitsEntity || plan.isIrregular || !plan.hasValidItemType || position.pointee.isEncoding { return .general }
        if let base = storage.baseAddress { base.update(repeating: .null, count: storage.count) }
        position.pointee = Position()
        position.pointee.isEncoding = true
        defer { position.pointee.isEncoding = false }
        do {
            try cell.running(self) { token in try entity.encode(to: EntityRowEncodingState(token: token)) }
        } catch {
            return .general
        }
        let found = position.pointee
        guard found.usedKeyedContainer, !found.isIrregular else { return .general }
        guard found.additions.isEmpty else { return .extend(found.additions) }
        guard let idSlot = plan.idSlot else { return .general }
        if let id = ItemID(storage[idSlot]) {
            return .row(EntityRow(plan: plan, id: id, values: UnsafeBufferPointer(storage)))
        }
        guard let id = compositeID(of: entity, at: idSlot) else { return .general }
        return .row(EntityRow(plan: plan, id: id, values: UnsafeBufferPointer(storage)))
    }

    /// The composite identifier of an entity whose identifier encoded as an object (a struct of
    /// several fields), put into its slot as the identifier's value; `nil` when it is none (the
    /// general path then reports why).
    private func compositeID<E: DataStoreEntity>(of entity: E, at idSlot: Int) -> ItemID? {
        guard case .object = storage[idSlot], let id = try? E.itemID(for: entity.id), id.isComposite else { return nil }
        storage[idSlot] = id.value
        return id
    }

    /// Runs `body` with the encoder whose token is `token`, if it is encoding on this thread.
    @inline(__always)
    static func withCurrent(_ token: EntityCoderToken, _ body: (EntityRowEncoder) -> Void) {
        EntityCoderCell.withCoder(token, as: EntityRowEncoder.self, body)
    }

    /// Puts a top-level value into its slot.
    @inline(__always)
    func set(_ value: Value, forKey name: String) {
        if let slot = plan.slot(of: name, cursor: &position.pointee.cursor) {
            // Another spelling of the slot's name: the item keeps the entity's own spelling.
            if !plan.spells(name, as: slot) { markIrregular() }
            storage[slot] = value
            position.pointee.previousSlot = slot
            position.pointee.previousAddition = nil
            if case .array = value, value.nestingDepth > BinaryValueCoding.maximumDepth { markIrregular() }
            if case .object = value, value.nestingDepth > BinaryValueCoding.maximumDepth { markIrregular() }
        } else {
            addition(name, value)
        }
    }

    private func addition(_ name: String, _ value: Value) {
        if !value.isNull {
            if (try? NameRules.validateAttribute(name, of: plan.itemType)) == nil {
                markIrregular()
            } else if !position.pointee.additions.contains(where: { $0.name == name }) {
                let previousSlot = position.pointee.previousSlot
                let after = position.pointee.previousAddition ?? (previousSlot >= 0 ? plan.names[previousSlot] : nil)
                position.pointee.additions.append(EntityPlanAddition(name: name, after: after))
            }
        }
        position.pointee.previousAddition = name
    }

    /// Marks the entity as one the plan cannot express; the general path encodes it.
    func markIrregular() {
        position.pointee.isIrregular = true
    }

    /// Records that the entity encodes into a keyed container, as an entity must; returns the
    /// container kept for the coding keys `keyType` (see ``ReusableContainer``), if any.
    @inline(__always)
    func markKeyed(keyedBy keyType: ObjectIdentifier) -> AnyObject? {
        position.pointee.usedKeyedContainer = true
        return container.pointee.storage(keyedBy: keyType)
    }

    /// Keeps `made` for the next entities encoded with the same coding keys.
    func keep<Key: CodingKey>(_ made: KeyedEncodingContainer<Key>) {
        container.pointee.keep(made, keyedBy: ObjectIdentifier(Key.self))
    }
}

/// The `Encoder` handed to `encode(to:)`: it finds its ``EntityRowEncoder`` by token (see
/// ``EntityCoderCell``).
struct EntityRowEncodingState: Encoder {
    let token: EntityCoderToken
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let keyType = ObjectIdentifier(type)
        var kept: AnyObject?
        EntityRowEncoder.withCurrent(token) { kept = $0.markKeyed(keyedBy: keyType) }
        if let kept { return unsafeBitCast(kept, to: KeyedEncodingContainer<Key>.self) }
        let container = KeyedEncodingContainer(EntityRowEncodingContainer<Key>(token: token))
        EntityRowEncoder.withCurrent(token) { $0.keep(container) }
        return container
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        EntityRowEncoder.withCurrent(token) { $0.markIrregular() }
        return ValueUnkeyedEncodingContainer(box: EncodingNode.ArrayBox(), codingPath: [])
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        EntityRowEncoder.withCurrent(token) { $0.markIrregular() }
        return ValueSingleEncodingContainer(encoder: ValueEncodingState(codingPath: []))
    }
}

/// The top-level keyed container of an ``EntityRowEncoder``: the same conversions as
/// ``ValueEncoder``'s keyed container (``ValueSettingContainer``), into slots.
struct EntityRowEncodingContainer<Key: CodingKey>: ValueSettingContainer {
    /// The encoder's token (see ``EntityCoderCell``).
    let token: EntityCoderToken
    var codingPath: [any CodingKey] { [] }

    @inline(__always)
    func set(_ value: Value, _ key: Key) {
        EntityRowEncoder.withCurrent(token) { $0.set(value, forKey: key.stringValue) }
    }

    private func markIrregular() {
        EntityRowEncoder.withCurrent(token) { $0.markIrregular() }
    }

    // The common scalars are implemented here rather than taken from ValueSettingContainer, so
    // that the standard library's box calls straight into the specialized code; `encodeIfPresent`
    // skips `nil` as the default implementation does, without its generic detour.

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(.double(value), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.int(Int64(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(.int(value), key) }

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { if let value { set(.bool(value), key) } }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { if let value { set(.string(value), key) } }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { if let value { set(.double(value), key) } }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { if let value { set(.int(Int64(value)), key) } }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { if let value { set(.int(value), key) } }

    mutating func encode(_ value: UInt, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try encodeInteger(value, key) }

    private func encodeInteger<I: BinaryInteger>(_ value: I, _ key: Key) throws {
        set(try EncodingNode.integer(value, codingPath: [key]).resolve(), key)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if let special = EncodingNode.special(value) {
            set(special, key)
        } else {
            set(try EncodingNode.box(value, codingPath: [key]).resolve(), key)
        }
    }

    // Nested containers and super encoders at the top level are rare; the general path keeps
    // their exact semantics.

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        markIrregular()
        return KeyedEncodingContainer(ValueKeyedEncodingContainer<NestedKey>(box: EncodingNode.ObjectBox(), codingPath: [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        markIrregular()
        return ValueUnkeyedEncodingContainer(box: EncodingNode.ArrayBox(), codingPath: [key])
    }

    mutating func superEncoder() -> any Encoder {
        markIrregular()
        return ValueEncodingState(codingPath: [])
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        markIrregular()
        return ValueEncodingState(codingPath: [key])
    }
}
