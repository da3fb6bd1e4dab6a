import Foundation

/// Decodes the entities of one type from the rows of one query (or one lookup): keeps the
/// type's current plan, and a decoder for the source and plan in use.
struct EntityRowDecoding {
    private var plan: EntityPlan
    private var decoder: EntityRowDecoder?

    /// Decodes entities of `type`.
    init<Entity: DataStoreEntity>(_ type: Entity.Type) {
        plan = EntityPlans.plan(for: type)
    }

    /// The entity in the source's current row.
    mutating func decode<Entity: DataStoreEntity>(_ type: Entity.Type, from source: any EntityRowSource) throws -> Entity {
        let decoder: EntityRowDecoder
        if let current = self.decoder, current.source === source, current.plan === plan {
            decoder = current
        } else {
            decoder = EntityRowDecoder(plan: plan, source: source)
            self.decoder = decoder
        }
        let entity = try decoder.decode(Entity.self)
        if let learned = decoder.takeMisses() {
            plan = EntityPlans.extend(Entity.self, from: plan, adding: learned)
        }
        return entity
    }
}

/// Decodes entities straight from one source's rows through one ``EntityPlan``: the state behind
/// the `Decoder` handed to `init(from:)` at the top level.
///
/// Each key the model asks for is matched to its slot by the plan's expected order and read from
/// the row's column for that slot, so no item and no dictionary is built per entity. Nested values
/// are decoded by ``ValueDecoder``'s machinery, exactly as before. A key the plan lacks is looked
/// up by name in the row and reported by ``takeMisses()``, to be learned for the next rows.
/// Whenever decoding fails, the entity is decoded again the general way, from the row's item, so
/// that errors are exactly those of ``DataStoreEntity/init(item:)``.
///
/// Plan, source and columns never change (the hot path reads them without reference counting);
/// a new plan or source gets a new decoder.
final class EntityRowDecoder {
    /// What changes from key to key, kept behind a pointer so that the hot path reads and writes
    /// it without the dynamic exclusivity checks of class properties. Only this decoder touches it.
    private struct Position {
        /// The slot the next key is expected in.
        var cursor = 0
        /// The slot of the key asked for last (-1 before the first), which a miss is placed after.
        var previousSlot = -1
        var previousMiss: String?
        /// Keys asked for that the plan lacks, in the order asked.
        var misses: [EntityPlanAddition] = []
        /// Whether a decode is running (keys asked for afterwards find nothing).
        var isDecoding = false
        /// The top-level container handed out last.
        var container = ReusableContainer()
    }

    let plan: EntityPlan
    let source: any EntityRowSource
    private let columns: any EntityRowColumns
    private let position: UnsafeMutablePointer<Position>

    init(plan: EntityPlan, source: any EntityRowSource) {
        self.plan = plan
        self.source = source
        columns = source.columns(for: plan)
        position = .allocate(capacity: 1)
        position.initialize(to: Position())
    }

    deinit {
        position.deinitialize(count: 1)
        position.deallocate()
    }

    /// Runs `body` with the decoder whose token is `token`, if it is decoding on this thread.
    @inline(__always)
    static func withCurrent<R>(_ token: UnsafeMutableRawPointer, _ body: (EntityRowDecoder) throws -> R) rethrows -> R? {
        try EntityCoderRegistry.withCoder(token, as: EntityRowDecoder.self, body)
    }

    /// The entity in the source's current row.
    func decode<Entity: DataStoreEntity>(_ type: Entity.Type) throws -> Entity {
        if plan.itemType != Entity.itemType || plan.idKey != Entity.idKey || position.pointee.isDecoding {
            return try Entity(item: source.item())
        }
        position.pointee.cursor = 0
        position.pointee.previousSlot = -1
        position.pointee.previousMiss = nil
        position.pointee.isDecoding = true
        defer { position.pointee.isDecoding = false }
        do {
            return try EntityCoderRegistry.running(self) { token in try Entity(from: EntityRowDecodingState(token: token)) }
        } catch {
            position.pointee.misses.removeAll()
            return try Entity(item: source.item())
        }
    }

    /// The keys the last decode asked for that the plan lacks, if any; forgets them.
    func takeMisses() -> [EntityPlanAddition]? {
        guard !position.pointee.misses.isEmpty else { return nil }
        defer { position.pointee.misses.removeAll() }
        return position.pointee.misses
    }

    /// The value of a top-level key, `nil` when the row has none.
    @inline(__always)
    func value(forKey name: String) throws -> Value? {
        guard position.pointee.isDecoding else { return nil }
        if let slot = plan.slot(of: name, cursor: &position.pointee.cursor) {
            position.pointee.previousSlot = slot
            position.pointee.previousMiss = nil
            let value = slot == plan.idSlot ? try source.identifier().value : try columns.value(atSlot: slot)
            return value.isNull ? nil : value
        }
        return try missingValue(forKey: name)
    }

    private func missingValue(forKey name: String) throws -> Value? {
        if !position.pointee.misses.contains(where: { $0.name == name }) {
            let previousSlot = position.pointee.previousSlot
            let after = position.pointee.previousMiss ?? (previousSlot >= 0 ? plan.names[previousSlot] : nil)
            position.pointee.misses.append(EntityPlanAddition(name: name, after: after))
        }
        position.pointee.previousMiss = name
        if name == plan.idKey { return try source.identifier().value }
        return try source.value(named: name)
    }

    /// The top-level container kept for the coding keys `keyType` (see ``ReusableContainer``).
    @inline(__always)
    func reusableContainer(keyedBy keyType: ObjectIdentifier) -> AnyObject? {
        position.pointee.container.storage(keyedBy: keyType)
    }

    /// Keeps `container` for the next entities decoded with the same coding keys.
    func keep<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>) {
        position.pointee.container.keep(container, keyedBy: ObjectIdentifier(Key.self))
    }

    /// Every top-level key of the row, as ``ValueDecoder`` would list them.
    var allKeys: [String] {
        guard position.pointee.isDecoding, let item = try? source.item() else { return [] }
        return Array(item.attributes.keys) + [plan.idKey]
    }
}

/// Thrown where the plan cannot decode exactly; the general path then decodes the entity.
struct EntityRowIrregularity: Error {}

/// The `Decoder` handed to `init(from:)`.
struct EntityRowDecodingState: Decoder {
    /// The decoder's token (see ``EntityCoderRegistry``).
    let token: UnsafeMutableRawPointer
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let keyType = ObjectIdentifier(type)
        if let storage = EntityRowDecoder.withCurrent(token, { $0.reusableContainer(keyedBy: keyType) }) ?? nil {
            return unsafeBitCast(storage, to: KeyedDecodingContainer<Key>.self)
        }
        let container = KeyedDecodingContainer(EntityRowDecodingContainer<Key>(token: token))
        EntityRowDecoder.withCurrent(token) { $0.keep(container) }
        return container
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw EntityRowIrregularity() }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw EntityRowIrregularity() }
}

/// The top-level keyed container: the conversions of ``ValueDecoder``'s keyed container, over
/// slots. Any failure sends the entity to the general path, which reports it exactly, so the
/// errors thrown here need not name their coding paths.
struct EntityRowDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    /// The decoder's token (see ``EntityCoderRegistry``).
    let token: UnsafeMutableRawPointer
    var codingPath: [any CodingKey] { [] }

    var allKeys: [Key] {
        (EntityRowDecoder.withCurrent(token) { $0.allKeys } ?? []).compactMap { Key(stringValue: $0) }
    }

    func contains(_ key: Key) -> Bool { ((try? lookUp(key)) ?? nil) != nil }

    /// The value of `key` in the row, `nil` when it has none.
    @inline(__always)
    private func lookUp(_ key: Key) throws -> Value? {
        guard let found = try EntityRowDecoder.withCurrent(token, { try $0.value(forKey: key.stringValue) }) else {
            throw EntityRowIrregularity()
        }
        return found
    }

    /// The value of `key`; absent and null values are missing keys, as in an item's attributes.
    @inline(__always)
    private func value(_ key: Key) throws -> Value {
        guard let value = try lookUp(key) else { throw EntityRowIrregularity() }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try lookUp(key) == nil }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try Self.bool(value(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try Self.string(value(key)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try Self.double(value(key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try Self.double(value(key))) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try Self.integer(value(key)) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try Self.integer(value(key)) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try Self.integer(value(key)) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try Self.integer(value(key)) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try Self.integer(value(key)) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try Self.integer(value(key)) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try Self.integer(value(key)) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try Self.integer(value(key)) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try Self.integer(value(key)) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try Self.integer(value(key)) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try Self.unbox(value(key), key) }

    // `decodeIfPresent` gives nil for a missing key, as the default implementation does by asking
    // `contains` and `decodeNil` first, but with one lookup instead of three.

    private func present(_ key: Key) throws -> Value? { try lookUp(key) }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(key).map(Self.bool) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(key).map(Self.string) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present(key).map(Self.double) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try present(key).map { Float(try Self.double($0)) }
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(key).map(Self.integer) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try present(key).map(Self.integer) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try present(key).map(Self.integer) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try present(key).map(Self.integer) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try present(key).map(Self.integer) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try present(key).map(Self.integer) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try present(key).map(Self.integer) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try present(key).map(Self.integer) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try present(key).map(Self.integer) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try present(key).map(Self.integer) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try present(key).map { try Self.unbox($0, key) }
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecodingState(value: value(key), codingPath: [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecodingState(value: value(key), codingPath: [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        let key = ValueCodingKey(stringValue: "super")
        let found = try EntityRowDecoder.withCurrent(token) { try $0.value(forKey: key.stringValue) } ?? nil
        return ValueDecodingState(value: found ?? .null, codingPath: [key])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecodingState(value: try lookUp(key) ?? .null, codingPath: [key])
    }

    // MARK: Conversions: the common case inline, everything else through ValueScalars.

    @inline(__always)
    private static func bool(_ value: Value) throws -> Bool {
        if case .bool(let bool) = value { return bool }
        return try ValueScalars.bool(value, [])
    }

    @inline(__always)
    private static func string(_ value: Value) throws -> String {
        if case .string(let string) = value { return string }
        throw EntityRowIrregularity()
    }

    @inline(__always)
    private static func double(_ value: Value) throws -> Double {
        if case .double(let double) = value { return double }
        return try ValueScalars.double(value, [])
    }

    @inline(__always)
    private static func integer<I: FixedWidthInteger>(_ value: Value) throws -> I {
        if case .int(let int) = value, let exact = I(exactly: int) { return exact }
        return try ValueScalars.integer(value, I.self, [])
    }

    @inline(__always)
    private static func unbox<T: Decodable>(_ value: Value, _ key: Key) throws -> T {
        // The identity check makes the cast exact, and spares the dynamic cast and its boxing.
        if T.self == Date.self, case .date(let date) = value { return unsafeBitCast(date, to: T.self) }
        return try ValueDecodingState.unbox(value, as: T.self, codingPath: [key])
    }
}
