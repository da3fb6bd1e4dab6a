/// A reference from one item type to another: the attributes of an item that hold the identifier
/// of a related item, and what deleting the related item does to the items that refer to it.
///
/// ``DataStoreReadWriteAccessor/ensureRelation(ofType:on:to:onDelete:name:)`` declares one, and
/// ``DataStoreReadAccessor/relations(ofType:)`` lists them, including the foreign keys an adopted
/// SQL table already had. Every store keeps the same promises (<doc:Relations>): a block that
/// leaves a reference to a missing item fails with ``DataStoreError/Code/referenceViolation``,
/// and deleting a referred item applies the relation's ``DeleteRule``.
///
/// ```swift
/// let byAlbum = try store.writeSync { accessor in
///     try accessor.ensureRelation(ofType: "Track", on: ["albumId"], to: "Album", onDelete: .cascade)
/// }
/// print(byAlbum)   // Track(albumId) → Album, on delete cascade
/// ```
public struct DataStoreRelation: Sendable, Hashable, CustomStringConvertible {
    /// What deleting a referred item does to the items that refer to it.
    public enum DeleteRule: Sendable, Hashable, CustomStringConvertible {
        /// The deletion is refused while an item refers to the deleted one when the block ends
        /// (SQL's `NO ACTION` and `RESTRICT`).
        case deny
        /// The items that refer to it are deleted too, and theirs in turn (SQL's `CASCADE`).
        case cascade
        /// The referring attributes of the items that refer to it are cleared (SQL's `SET NULL`).
        case nullify
        /// An action of an adopted foreign key that Persist lists as the engine spells it
        /// (`SET DEFAULT`) and the engine itself carries out.
        case engineAction(String)

        /// `deny`, `cascade`, `nullify`, or the engine's spelling.
        public var description: String {
            switch self {
            case .deny: "deny"
            case .cascade: "cascade"
            case .nullify: "nullify"
            case .engineAction(let action): action
            }
        }
    }

    /// The item type whose items refer.
    public var itemType: String
    /// The attributes that hold the related item's identifier: one, or one per component of a
    /// composite identifier, in the identifier's order.
    public var attributes: [String]
    /// The item type of the items referred to.
    public var relatedType: String
    /// What deleting a referred item does.
    public var onDelete: DeleteRule
    /// The relation's name, unique among the relations of ``itemType`` (on an SQL store, the
    /// foreign key's constraint name).
    public var name: String

    /// Describes a relation. Without a name it is `<itemType>_<attributes>_fkey`, as PostgreSQL
    /// names a foreign key.
    ///
    /// ```swift
    /// let relation = DataStoreRelation(itemType: "Track", attributes: ["albumId"], relatedType: "Album",
    ///                                  onDelete: .deny)
    /// relation.name   // "Track_albumId_fkey"
    /// ```
    public init(itemType: String, attributes: [String], relatedType: String, onDelete: DeleteRule,
                name: String? = nil) {
        self.itemType = itemType
        self.attributes = attributes
        self.relatedType = relatedType
        self.onDelete = onDelete
        self.name = name ?? Self.defaultName(itemType: itemType, attributes: attributes)
    }

    /// The name a relation takes when none is given.
    static func defaultName(itemType: String, attributes: [String]) -> String {
        "\(itemType)_\(attributes.joined(separator: "_"))_fkey"
    }

    /// Whether `other` makes the same promise: the same types, attributes and rule (names aside).
    ///
    /// ```swift
    /// let a = DataStoreRelation(itemType: "Track", attributes: ["albumId"], relatedType: "Album", onDelete: .deny)
    /// assert(a.hasSameRules(as: DataStoreRelation(itemType: "Track", attributes: ["albumId"],
    ///                                             relatedType: "Album", onDelete: .deny, name: "byAlbum")))
    /// ```
    public func hasSameRules(as other: DataStoreRelation) -> Bool {
        itemType == other.itemType && attributes == other.attributes && relatedType == other.relatedType
            && onDelete == other.onDelete
    }

    /// A readable rendering, for messages and logs: `Track(albumId) → Album, on delete cascade`.
    public var description: String {
        "\(itemType)(\(attributes.joined(separator: ", "))) → \(relatedType), on delete \(onDelete)"
    }

    /// The identifier the values of ``attributes`` in `item` refer to; `.none` when one of them is
    /// missing or null (the item refers to nothing). An attribute `shape` places in the item's
    /// identifier (a key column of an adopted table) is read from it.
    func referredID(in item: Item, shape: ReferringShape = .attributes) -> ReferredID {
        var components: [ItemID] = []
        components.reserveCapacity(attributes.count)
        for (position, name) in attributes.enumerated() {
            if let index = shape.keyComponent(at: position) {
                let key = item.id.components
                guard index < key.count else { return .none }
                components.append(key[index])
                continue
            }
            guard let value = item.attributes[name], value != .null else { return .none }
            guard let component = ItemID(value) else { return .notAnIdentifier(name, value) }
            components.append(component)
        }
        if components.count == 1 { return .id(components[0]) }
        return .id(.composite(components))
    }

    /// What the referring attributes of an item hold.
    enum ReferredID {
        /// No reference: an attribute is missing or null.
        case none
        /// The identifier referred to.
        case id(ItemID)
        /// An attribute holds a value no identifier can be.
        case notAnIdentifier(String, Value)
    }

    /// How to find the items of ``itemType`` that refer to `id`: a filter on the referring
    /// attributes that are no key columns (`nil` when every one is), and whether each item it
    /// selects must still be checked with ``refers(_:to:shape:)`` (when some are). `nil` when `id`
    /// has another number of components than the relation has attributes: nothing refers to it.
    func referrerSelection(for id: ItemID, shape: ReferringShape = .attributes)
        -> (filter: DataStorePredicate?, checksEach: Bool)? {
        let components = id.components
        guard components.count == attributes.count else { return nil }
        var filter: DataStorePredicate?
        for (position, (name, component)) in zip(attributes, components).enumerated() where shape.keyComponent(at: position) == nil {
            let term = DataStorePredicate.attribute(name) == component.value
            filter = filter.map { .and($0, term) } ?? term
        }
        return (filter, shape.usesKey)
    }

    /// Whether `item` refers to `id` through this relation.
    func refers(_ item: Item, to id: ItemID, shape: ReferringShape) -> Bool {
        if case .id(let referred) = referredID(in: item, shape: shape) { return referred == id }
        return false
    }
}

/// Where the referring attributes of a relation are held: each an attribute of the item, or, in
/// an adopted table whose key columns refer to another table (Chinook's `playlist_track`), a
/// component of the item's identifier (see ``StoreReader/keyAttributes(ofType:)``).
struct ReferringShape: Sendable, Hashable {
    /// For each attribute of the relation, the identifier component holding it, or `nil`.
    private let components: [Int?]

    /// Every referring attribute is an attribute of the item.
    static let attributes = ReferringShape(components: [])

    private init(components: [Int?]) {
        self.components = components
    }

    /// The shape of `relation` for items whose identifiers are held in `keyAttributes`.
    init(_ relation: DataStoreRelation, keyAttributes: [String]?) {
        guard let keyAttributes, !keyAttributes.isEmpty else {
            components = []
            return
        }
        components = relation.attributes.map { keyAttributes.firstIndex(of: $0) }
    }

    /// The identifier component holding the relation's attribute at `position`, if any.
    func keyComponent(at position: Int) -> Int? {
        position < components.count ? components[position] : nil
    }

    /// Whether a referring attribute is held in the identifier.
    var usesKey: Bool { components.contains { $0 != nil } }
}
