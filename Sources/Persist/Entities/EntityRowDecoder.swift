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

    /// The entity in the source's current row; a type whose keys vary (an irregular plan) is
    /// decoded the general way, as it is written.
    mutating func decode<Entity: DataStoreEntity>(_ type: Entity.Type, from source: any EntityRowSource) throws -> Entity {
        if plan.isIrregular { return try Entity(item: source.item()) }
        let decoder: EntityRowDecoder
        if let current = self.decoder, current.source === source, current.plan === plan {
            decoder = current
        } else {
            decoder = EntityRowDecoder(plan: plan, source: source, for: Entity.self)
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
        /// The index in ``misses`` of the key asked for last, when it was a miss (else -1).
        var previousMiss = -1
        /// Keys asked for that the plan lacks, in the order asked.
        var misses: [EntityPlanAddition] = []
        /// Whether a decode is running (keys asked for afterwards find nothing).
        var isDecoding = false
        /// Whether the running decode met something only the general path decodes exactly (see
        /// ``EntityRowDecoder/irregularity()``).
        var isIrregular = false
        /// The attribute slots below 64 the running decode read (bit `slot` for each).
        var read: UInt64 = 0
        /// The top-level container handed out last.
        var container = ReusableContainer()
    }

    let plan: EntityPlan
    let source: any EntityRowSource
    private let columns: any EntityRowColumns
    private let position: UnsafeMutablePointer<Position>
    private let cell = EntityCoderCell.make()
    /// Whether the plan was made for the entity type's current names; a model whose type or key
    /// names are computed anew each time is decoded the general way.
    private let fitsEntity: Bool

    /// A decoder of `Entity` values from `source` through `plan`.
    init<Entity: DataStoreEntity>(plan: EntityPlan, source: any EntityRowSource, for entity: Entity.Type) {
        self.plan = plan
        self.source = source
        columns = source.columns(for: plan)
        position = .allocate(capacity: 1)
        position.initialize(to: Position())
        fitsEntity = plan.itemType == Entity.itemType && plan.idKey == Entity.idKey
    }

    deinit {
        position.deinitialize(count: 1)
        position.deallocate()
        cell.recycle()
    }

    /// Runs `body` with the decoder whose token is `token`, if it is decoding on this thread.
    @inline(__always)
    static func withCurrent<R>(_ token: EntityCoderToken, _ body: (EntityRowDecoder) throws -> R) rethrows -> R? {
        try EntityCoderCell.withCoder(token, as: EntityRowDecoder.self, body)
    }

    /// The entity in the source's current row; `Entity` is the type the decoder was made for.
    func decode<Entity: DataStoreEntity>(_ type: Entity.Type) throws -> Entity {
        if !fitsEntity || position.pointee.isDecoding {
            return try Entity(item: source.item())
        }
        position.pointee.cursor = 0
        position.pointee.previousSlot = -1
        position.pointee.previousMiss = -1
        position.pointee.isIrregular = false
        position.pointee.read = 0
        position.pointee.isDecoding = true
        defer { position.pointee.isDecoding = false }
        do {
            let entity = try cell.running(self) { token in try Entity(from: EntityRowDecodingState(token: token)) }
            // A model that caught an error of the typed path went its own way with it: decode it
            // again the general way, where it meets the general path's errors. So is an entity
            // whose row holds a value the model did not read and that cannot be read: reading
            // the whole item fails on it.
            if !position.pointee.isIrregular {
                try source.checkUnread(position.pointee.read, for: plan)
                return entity
            }
        } catch {}
        position.pointee.misses.removeAll()
        return try Entity(item: source.item())
    }

    /// Records that the running decode met something only the general path decodes exactly, and
    /// gives the error to throw: the entity is then decoded the general way, even when the model
    /// catches the error.
    func irregularity() -> EntityRowIrregularity {
        position.pointee.isIrregular = true
        return EntityRowIrregularity()
    }

    /// ``irregularity()`` of the decoder whose token is `token`, when it is decoding.
    static func irregularity(_ token: EntityCoderToken) -> EntityRowIrregularity {
        withCurrent(token) { $0.irregularity() } ?? EntityRowIrregularity()
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
        try value(forKey: name, shortcut: { _, _ in nil }, { $0 })
    }

    /// The value of a top-level key as `convert` makes it, `nil` when the row has none.
    /// `shortcut` reads an attribute's slot straight from the engine when it can (see
    /// ``EntityRowColumns/string(atSlot:)``); every other value is read as a `Value` and converted.
    @inline(__always)
    func value<T>(
        forKey name: String, shortcut: (any EntityRowColumns, Int) -> T?, _ convert: (Value) throws -> T
    ) throws -> T? {
        do {
            return try uncheckedValue(forKey: name, shortcut: shortcut, convert)
        } catch {
            // A conversion the general path reports with its own coding path, or a read that failed.
            position.pointee.isIrregular = true
            throw error
        }
    }

    @inline(__always)
    private func uncheckedValue<T>(
        forKey name: String, shortcut: (any EntityRowColumns, Int) -> T?, _ convert: (Value) throws -> T
    ) throws -> T? {
        guard position.pointee.isDecoding else { return nil }
        guard let slot = plan.slot(of: name, cursor: &position.pointee.cursor) else {
            return try missingValue(forKey: name).map(convert)
        }
        position.pointee.previousSlot = slot
        position.pointee.previousMiss = -1
        if slot == plan.idSlot {
            let id = try source.identifier().value
            return try convert(id)
        }
        if slot < 64 { position.pointee.read |= 1 << UInt64(slot) }
        if let found = shortcut(columns, slot) { return found }
        let value = try columns.value(atSlot: slot)
        return value.isNull ? nil : try convert(value)
    }

    private func missingValue(forKey name: String) throws -> Value? {
        if let index = position.pointee.misses.firstIndex(where: { $0.name == name }) {
            position.pointee.previousMiss = index
        } else {
            let previous = position.pointee.previousMiss
            let previousSlot = position.pointee.previousSlot
            let after = previous >= 0
                ? position.pointee.misses[previous].name : previousSlot >= 0 ? plan.names[previousSlot] : nil
            position.pointee.misses.append(EntityPlanAddition(name: name, after: after))
            position.pointee.previousMiss = position.pointee.misses.count - 1
        }
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

    /// Every top-level key of the row, as ``ValueDecoder`` lists them. A row that cannot be
    /// read sends the entity to the general path, which reports why.
    var allKeys: [String] {
        guard position.pointee.isDecoding else { return [] }
        let item: Item
        do {
            item = try source.item()
        } catch {
            position.pointee.isIrregular = true
            return []
        }
        // The keys of the object the general path decodes (the identifier listed once, in place of
        // any attribute of its name), in its order.
        var object = item.attributes
        object[plan.idKey] = item.id.value
        return BinaryValueCoding.sortedKeys(object)
    }
}

/// Thrown where the plan cannot decode exactly; the general path then decodes the entity.
struct EntityRowIrregularity: Error {}

/// The `Decoder` handed to `init(from:)`.
struct EntityRowDecodingState: Decoder {
    /// The decoder's token (see ``EntityCoderCell``).
    let token: EntityCoderToken
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

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw EntityRowDecoder.irregularity(token) }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw EntityRowDecoder.irregularity(token) }

}

/// The top-level keyed container: the conversions of ``ValueDecoder``'s keyed container, over
/// slots. Any failure sends the entity to the general path, which reports it exactly, so the
/// errors thrown here need not name their coding paths.
struct EntityRowDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    /// The decoder's token (see ``EntityCoderCell``).
    let token: EntityCoderToken
    var codingPath: [any CodingKey] { [] }

    var allKeys: [Key] {
        (EntityRowDecoder.withCurrent(token) { $0.allKeys } ?? []).compactMap { Key(stringValue: $0) }
    }

    func contains(_ key: Key) -> Bool { ((try? lookUp(key)) ?? nil) != nil }

    /// The value of `key` in the row, `nil` when it has none.
    @inline(__always)
    private func lookUp(_ key: Key) throws -> Value? {
        try read(key, shortcut: { _, _ in nil }, { $0 })
    }

    /// The value of `key` as `convert` makes it, `nil` when the row has none; `shortcut` reads
    /// the attribute straight from the engine when it can.
    @inline(__always)
    private func read<T>(
        _ key: Key, shortcut: (any EntityRowColumns, Int) -> T?, _ convert: (Value) throws -> T
    ) throws -> T? {
        guard let found = try EntityRowDecoder.withCurrent(token, {
            try $0.value(forKey: key.stringValue, shortcut: shortcut, convert)
        }) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: [key],
                debugDescription: "a container of a typed read was used after init(from:) returned, or from another "
                    + "thread; keep the decoded values instead, or read the entity with init(item:)"))
        }
        return found
    }

    /// The value of `key`; absent and null values are missing keys, as in an item's attributes,
    /// and throw the very error ``ValueDecoder`` throws for them, so that a model catching it
    /// (`try?` with a default) takes the same branch on both paths.
    @inline(__always)
    private func required<T>(
        _ key: Key, shortcut: (any EntityRowColumns, Int) -> T?, _ convert: (Value) throws -> T
    ) throws -> T {
        guard let value = try read(key, shortcut: shortcut, convert) else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(
                codingPath: [], debugDescription: "no value for \(String(reflecting: key.stringValue))"))
        }
        return value
    }

    @inline(__always)
    private func value(_ key: Key) throws -> Value { try required(key, shortcut: { _, _ in nil }, { $0 }) }

    // Each scalar is read through its engine shortcut, and converted as ValueDecoder converts it
    // otherwise.

    @inline(__always)
    private static func stringSlot(_ columns: any EntityRowColumns, _ slot: Int) -> String? {
        columns.string(atSlot: slot)
    }

    @inline(__always)
    private static func boolSlot(_ columns: any EntityRowColumns, _ slot: Int) -> Bool? { columns.bool(atSlot: slot) }

    @inline(__always)
    private static func doubleSlot(_ columns: any EntityRowColumns, _ slot: Int) -> Double? {
        columns.double(atSlot: slot)
    }

    @inline(__always)
    private static func integerSlot<I: FixedWidthInteger>(_ columns: any EntityRowColumns, _ slot: Int) -> I? {
        columns.integer(atSlot: slot).flatMap { I(exactly: $0) }
    }

    @inline(__always)
    private static func floatSlot(_ columns: any EntityRowColumns, _ slot: Int) -> Float? {
        columns.double(atSlot: slot).flatMap(ValueScalars.float(exactly:))
    }

    @inline(__always)
    private static func float(_ value: Value) throws -> Float { try ValueScalars.float(value, []) }

    func decodeNil(forKey key: Key) throws -> Bool { try lookUp(key) == nil }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try required(key, shortcut: Self.boolSlot, Self.bool) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try required(key, shortcut: Self.stringSlot, Self.string)
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try required(key, shortcut: Self.doubleSlot, Self.double)
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try required(key, shortcut: Self.floatSlot, Self.float) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try required(key, shortcut: Self.integerSlot, Self.integer) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try required(key, shortcut: Self.integerSlot, Self.integer) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try required(key, shortcut: Self.integerSlot, Self.integer) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try required(key, shortcut: Self.integerSlot, Self.integer)
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try required(key, shortcut: Self.integerSlot, Self.integer)
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try required(key, shortcut: Self.integerSlot, Self.integer) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try required(key, shortcut: Self.integerSlot, Self.integer) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try required(key, shortcut: Self.integerSlot, Self.integer) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try required(key, shortcut: Self.integerSlot, Self.integer) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try required(key, shortcut: Self.integerSlot, Self.integer) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        if T.self == Date.self {
            let date = try required(key, shortcut: { $0.date(atSlot: $1) }, Self.date)
            return unsafeBitCast(date, to: T.self)
        }
        guard let found = try present(key) else { return try ValueDecodingState.absent(type, key, codingPath: []) }
        if let components = identifierComponents(found, key) {
            return try CompositeIDDecoding.unbox(components, as: type, codingPath: [key])
        }
        return try Self.unbox(found, key)
    }

    /// The components of a composite identifier, when `value` is the identifier's (an array
    /// under the identifier's key).
    private func identifierComponents(_ value: Value, _ key: Key) -> [Value]? {
        guard case .array(let components) = value,
              EntityRowDecoder.withCurrent(token, { $0.plan.idKey == key.stringValue }) == true else { return nil }
        return components
    }

    // `decodeIfPresent` gives nil for a missing key, as the default implementation does by asking
    // `contains` and `decodeNil` first, but with one lookup instead of three.

    private func present(_ key: Key) throws -> Value? { try lookUp(key) }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try read(key, shortcut: Self.boolSlot, Self.bool)
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try read(key, shortcut: Self.stringSlot, Self.string)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try read(key, shortcut: Self.doubleSlot, Self.double)
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try read(key, shortcut: Self.floatSlot, Self.float)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try read(key, shortcut: Self.integerSlot, Self.integer)
    }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try read(key, shortcut: Self.integerSlot, Self.integer) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try read(key, shortcut: Self.integerSlot, Self.integer) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try read(key, shortcut: Self.integerSlot, Self.integer)
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try read(key, shortcut: Self.integerSlot, Self.integer)
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try read(key, shortcut: Self.integerSlot, Self.integer) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try read(key, shortcut: Self.integerSlot, Self.integer) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try read(key, shortcut: Self.integerSlot, Self.integer) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try read(key, shortcut: Self.integerSlot, Self.integer) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try read(key, shortcut: Self.integerSlot, Self.integer) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        if T.self == Date.self {
            let date = try read(key, shortcut: { $0.date(atSlot: $1) }, Self.date)
            return date.map { unsafeBitCast($0, to: T.self) }
        }
        guard let found = try present(key) else { return nil }
        if let components = identifierComponents(found, key) {
            return try CompositeIDDecoding.unbox(components, as: type, codingPath: [key])
        }
        return try Self.unbox(found, key)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let found = try value(key)
        if let components = identifierComponents(found, key) {
            let cursor = CompositeIDCursor(components: components)
            return try CompositeIDDecoder(cursor: cursor, codingPath: [key]).container(keyedBy: type)
        }
        return try ValueDecodingState(value: found, codingPath: [key]).container(keyedBy: type)
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

    /// A date as ``ValueDecoder`` decodes one; a stored date is the common case.
    @inline(__always)
    private static func date(_ value: Value) throws -> Date {
        if case .date(let date) = value { return date }
        return try ValueDecodingState.unbox(value, as: Date.self, codingPath: [])
    }

    @inline(__always)
    private static func unbox<T: Decodable>(_ value: Value, _ key: Key) throws -> T {
        try ValueDecodingState.unbox(value, as: T.self, codingPath: [key])
    }
}
