/// The learned shape of one entity type: every coding key its `Codable` conformance was seen to
/// use, in the order it uses them, and which of them is the identifier.
///
/// Typed writes encode an entity into one value per *slot* (a key's position in ``names``) and
/// typed reads decode it from one value per slot, so that no `[String: Value]` is built per entity
/// and no attribute name is hashed per value: each key is matched to its slot by comparing it with
/// the name the plan expects next. Synthesized conformances use their keys in declaration order,
/// so the expected name is almost always the right one; `encodeIfPresent` skips `nil` optionals,
/// which the match passes over.
///
/// A plan is immutable. Learning a key it lacks makes a new, extended plan; engines cache what
/// they derive from a plan (column positions, record order) by the plan's identity, so an extended
/// plan is resolved anew. Plans are made by the library; engines read them (see
/// ``EntityRowReading`` and ``EntityRowWriting``).
///
/// ```swift
/// let attributes = plan.attributeSlots.map { plan.names[$0] }
/// ```
public final class EntityPlan: Sendable {
    /// The item type the entity is stored as.
    ///
    /// ```swift
    /// let table = plan.itemType
    /// ```
    public let itemType: String
    /// The coding key of the identifier.
    ///
    /// ```swift
    /// let idKey = plan.idKey   // "id" for most models
    /// ```
    public let idKey: String
    /// Every key, in slot order. Each is a valid attribute name.
    ///
    /// ```swift
    /// let first = plan.names.first
    /// ```
    public let names: [String]
    /// The slot of ``idKey``, once the plan has seen it.
    ///
    /// ```swift
    /// let hasIdentifierSlot = plan.idSlot != nil
    /// ```
    public let idSlot: Int?
    /// Every slot but the identifier's: the attributes.
    ///
    /// ```swift
    /// for slot in plan.attributeSlots { print(plan.names[slot]) }
    /// ```
    public let attributeSlots: [Int]
    /// ``attributeSlots`` ordered by their names' UTF-8 bytes, the order in which records and
    /// created columns list attributes.
    package let attributeSlotsInByteOrder: [Int]
    /// The bits of ``attributeSlots`` (bit `slot` for each), or `nil` when a slot is 64 or more:
    /// what a decode that read every attribute has read.
    ///
    /// ```swift
    /// let everything = plan.attributeMask ?? 0
    /// ```
    public let attributeMask: UInt64?
    /// How many times the plan was extended; past ``maximumExtensions`` the type is irregular.
    package let extensions: Int
    /// Whether ``itemType`` is a valid item type name; writes of a type with an invalid one take
    /// the general path, which reports it.
    package let hasValidItemType: Bool
    /// For each slot, its name's UTF-8 length when the name is ASCII, -1 otherwise (see
    /// ``spells(_:as:)``).
    private let asciiNameLengths: [Int]

    /// How many times a type's plan may grow before its keys are deemed to vary from entity to
    /// entity (a model encoding a dictionary's keys at the top level); the type then takes the
    /// general path.
    package static let maximumExtensions = 32

    /// A plan with these keys; ``EntityPlans`` makes and extends the plans in use.
    package init(itemType: String, idKey: String, names: [String], extensions: Int) {
        self.itemType = itemType
        self.idKey = idKey
        self.names = names
        self.extensions = extensions
        hasValidItemType = (try? NameRules.validateItemType(itemType)) != nil
        let idSlot = names.firstIndex(of: idKey)
        self.idSlot = idSlot
        attributeSlots = names.indices.filter { $0 != idSlot }
        attributeMask = names.count <= 64 ? attributeSlots.reduce(UInt64(0)) { $0 | 1 << UInt64($1) } : nil
        attributeSlotsInByteOrder = attributeSlots.sorted { ByteOrder.compare(names[$0], names[$1]) < 0 }
        asciiNameLengths = names.map { $0.utf8.contains { $0 >= 0x80 } ? -1 : $0.utf8.count }
    }

    /// Whether the type's keys vary too much for a plan: its writes and reads then take the
    /// general path, and the plan grows no further.
    package var isIrregular: Bool { extensions > Self.maximumExtensions }

    /// The slot of `name`, looked for first where `cursor` points (the key expected next), then
    /// after it, then before it; `cursor` moves past the slot found.
    @inline(__always)
    func slot(of name: String, cursor: inout Int) -> Int? {
        let count = names.count
        if cursor < count, names[cursor] == name {
            cursor += 1
            return cursor - 1
        }
        return search(name, cursor: &cursor)
    }

    /// Whether `name`, which ``slot(of:cursor:)`` found in `slot`, is spelled with the very bytes
    /// of the slot's name: Swift finds two Unicode spellings of one name equal (`"caf\u{E9}"` and
    /// `"cafe\u{301}"`, `"\u{212A}"` and `"K"`), but an item keeps the spelling it was given.
    ///
    /// An ASCII name has no other spelling of the same length (every other spelling has a scalar
    /// of two bytes or more standing for one ASCII character), so comparing lengths suffices for
    /// an ASCII name.
    @inline(__always)
    func spells(_ name: String, as slot: Int) -> Bool {
        let length = asciiNameLengths[slot]
        if length >= 0 { return name.utf8.count == length }
        return name.utf8.elementsEqual(names[slot].utf8)
    }

    private func search(_ name: String, cursor: inout Int) -> Int? {
        let count = names.count
        var index = cursor + 1
        while index < count {
            if names[index] == name {
                cursor = index + 1
                return index
            }
            index += 1
        }
        index = 0
        while index < min(cursor, count) {
            if names[index] == name {
                cursor = index + 1
                return index
            }
            index += 1
        }
        return nil
    }

    /// The plan with `additions` inserted, each just after the key it followed (at the start when
    /// it followed none); names the plan already has are skipped.
    package func extended(with additions: [EntityPlanAddition]) -> EntityPlan {
        var seen = Set(names)
        let fresh = additions.filter { seen.insert($0.name).inserted }
        guard !fresh.isEmpty else { return self }
        let known = seen
        var extended: [String] = []
        var placed = Set<String>()
        /// Appends `name`, then the additions that came after it, and theirs in turn.
        func place(_ name: String) {
            guard placed.insert(name).inserted else { return }
            extended.append(name)
            for addition in fresh where addition.after == name { place(addition.name) }
        }
        for addition in fresh where addition.after.map({ !known.contains($0) }) ?? true { place(addition.name) }
        for name in names { place(name) }
        // An addition placed after a name that no chain reaches still gets a slot.
        for addition in fresh { place(addition.name) }
        return EntityPlan(itemType: itemType, idKey: idKey, names: extended, extensions: extensions + 1)
    }
}

/// A key a plan lacks, and the key it came after (`nil` at the start), so that the extended plan
/// keeps the model's order.
package struct EntityPlanAddition: Sendable, Equatable {
    package var name: String
    package var after: String?

    package init(name: String, after: String?) {
        self.name = name
        self.after = after
    }
}

/// The current plan of every entity type the process has written or read, shared by every store:
/// a plan depends only on the type; engines cache its resolution against their schemas.
package enum EntityPlans {
    private static let current = Locked<[ObjectIdentifier: EntityPlan]>([:])

    /// The current plan of `type` (an empty one the first time).
    package static func plan<E: DataStoreEntity>(for type: E.Type) -> EntityPlan {
        current.withLock { plans in
            if let plan = plans[ObjectIdentifier(type)] { return plan }
            let plan = EntityPlan(itemType: E.itemType, idKey: E.idKey, names: [], extensions: 0)
            plans[ObjectIdentifier(type)] = plan
            return plan
        }
    }

    /// Adds keys to the plan of `type` and returns the new current plan. `base` is the plan the
    /// keys were found missing from; when another thread extended it meanwhile, the keys are
    /// added to that newer plan. Invalid attribute names are never added.
    package static func extend<E: DataStoreEntity>(
        _ type: E.Type, from base: EntityPlan, adding additions: [EntityPlanAddition]
    ) -> EntityPlan {
        let valid = additions.filter { (try? NameRules.validateAttribute($0.name, of: E.itemType)) != nil }
        return current.withLock { plans in
            let latest = plans[ObjectIdentifier(type)] ?? base
            // An irregular type's keys vary without end: its plan stops growing.
            guard !latest.isIrregular else { return latest }
            let extended = latest.extended(with: valid)
            plans[ObjectIdentifier(type)] = extended
            return extended
        }
    }
}
