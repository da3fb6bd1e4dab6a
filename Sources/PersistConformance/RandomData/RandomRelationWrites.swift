import Foundation
import Persist

/// The random schema and writes of the relation differential test: four item types — `Person`
/// (integer identifiers, a relation to itself), `Album` (composite identifiers where the store
/// has them), `Track` (string identifiers) and `Note` — six relations whose delete rules are
/// drawn so that `.deny`, `.cascade` and `.nullify` each appear, and random write blocks whose
/// references may or may not hold.
///
/// ```swift
/// var writes = RandomRelationWrites(seed: 7, compositeAlbums: true)
/// let relations = try store.writeSync { accessor in try writes.declare(in: accessor) }
/// var model = ReferenceRelations(relations: relations)
/// let block = writes.block(over: model)
/// ```
public struct RandomRelationWrites: Sendable {
    /// One write of a block.
    public enum Write: Sendable, CustomStringConvertible {
        /// `insert(_:)` of an item whose identifier is not stored.
        case insert(Item)
        /// `save(_:)`, replacing the item of its identifier if there is one.
        case save(Item)
        /// `deleteItem(ofType:id:)`, of an item that may not be stored.
        case deleteItem(ItemReference)
        /// `deleteItems(forRequest:)`.
        case deleteItems(DataStoreRequest)
        /// `deleteAllItems(ofType:)`.
        case deleteAllItems(String)
        /// `updateItems(forRequest:setting:)`, setting referring attributes.
        case updateItems(DataStoreRequest, [String: Value])

        /// Runs the write in a block; what it returned, as a number (a delete's `Bool` as 0 or 1).
        public func apply(to accessor: DataStoreReadWriteAccessor) throws -> Int {
            switch self {
            case .insert(let item): try accessor.insert(item); return 0
            case .save(let item): try accessor.save(item); return 0
            case .deleteItem(let reference):
                return try accessor.deleteItem(ofType: reference.itemType, id: reference.id) ? 1 : 0
            case .deleteItems(let request): return try accessor.deleteItems(forRequest: request)
            case .deleteAllItems(let itemType): return try accessor.deleteAllItems(ofType: itemType)
            case .updateItems(let request, let values): return try accessor.updateItems(forRequest: request, setting: values)
            }
        }

        /// Applies the write to the model; what the store's write should return.
        public func apply(to model: inout ReferenceRelations) -> Int {
            switch self {
            case .insert(let item), .save(let item): model.store(item); return 0
            case .deleteItem(let reference): return model.delete(reference) ? 1 : 0
            case .deleteItems(let request): return model.deleteItems(forRequest: request)
            case .deleteAllItems(let itemType): return model.deleteItems(forRequest: DataStoreRequest(itemType: itemType))
            case .updateItems(let request, let values): return model.updateItems(forRequest: request, setting: values)
            }
        }

        /// A readable rendering, for messages.
        public var description: String {
            switch self {
            case .insert(let item): "insert \(item)"
            case .save(let item): "save \(item)"
            case .deleteItem(let reference): "deleteItem \(reference)"
            case .deleteItems(let request): "deleteItems(\(Self.describe(request)))"
            case .deleteAllItems(let itemType): "deleteAllItems(ofType: \(itemType))"
            case .updateItems(let request, let values):
                "updateItems(\(Self.describe(request)), setting: \(values.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }))"
            }
        }

        static func describe(_ request: DataStoreRequest) -> String {
            "\(request.itemType) where \(request.filter.map { "\($0)" } ?? "true")"
                + request.relatedFilters.map { " \($0)" }.joined()
        }
    }

    /// The item types, in the order a top-up block fills them.
    public static let itemTypes = ["Person", "Album", "Track", "Note"]
    /// How many items of each type a top-up block brings the model back to.
    static let targetCounts = ["Person": 10, "Album": 8, "Track": 12, "Note": 10]

    var generator: SeededGenerator
    /// Whether `Album` has composite identifiers (`label`, `number`).
    public let compositeAlbums: Bool
    /// The relations to declare, rules drawn from the seed (names are the default ones).
    public let relations: [DataStoreRelation]

    /// The schema and writes of `seed`; `compositeAlbums` when the store has composite identifiers.
    public init(seed: UInt64, compositeAlbums: Bool) {
        var generator = SeededGenerator(seed: seed)
        self.compositeAlbums = compositeAlbums
        let rules: [DataStoreRelation.DeleteRule] = [.deny, .cascade, .nullify]
        var drawn: [DataStoreRelation.DeleteRule] = []
        // Redraw until every rule appears among the five relations that may cascade.
        while Set(drawn.map(\.description)).count < 3 {
            drawn = (0..<5).map { _ in rules[Int.random(in: 0..<3, using: &generator)] }
        }
        let albumAttributes = compositeAlbums ? ["albumLabel", "albumNo"] : ["albumNo"]
        relations = [
            DataStoreRelation(itemType: "Person", attributes: ["managerId"], relatedType: "Person", onDelete: drawn[0]),
            DataStoreRelation(itemType: "Album", attributes: ["ownerId"], relatedType: "Person", onDelete: drawn[1]),
            DataStoreRelation(itemType: "Track", attributes: albumAttributes, relatedType: "Album", onDelete: drawn[2]),
            DataStoreRelation(itemType: "Track", attributes: ["writerId"], relatedType: "Person", onDelete: drawn[3]),
            DataStoreRelation(itemType: "Note", attributes: ["trackId"], relatedType: "Track", onDelete: drawn[4]),
            // Person → Track closes a cycle of references with Track → Person: never `.cascade`,
            // which would be a cascade cycle through two types (refused when declared).
            DataStoreRelation(itemType: "Person", attributes: ["favoriteTrack"], relatedType: "Track",
                              onDelete: Bool.random(using: &generator) ? .deny : .nullify),
        ]
        self.generator = generator
    }

    /// Declares the relations in a write block; returns them as the store does.
    public func declare(in accessor: DataStoreReadWriteAccessor) throws -> [DataStoreRelation] {
        try relations.map {
            try accessor.ensureRelation(ofType: $0.itemType, on: $0.attributes, to: $0.relatedType, onDelete: $0.onDelete)
        }
    }

    // MARK: Choices

    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &generator) < probability
    }

    mutating func pick<T>(_ list: [T]) -> T {
        list[Int.random(in: 0..<list.count, using: &generator)]
    }

    mutating func number(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &generator)
    }

    /// Every identifier the test uses for `itemType`: more than a top-up stores, so that some
    /// references are to items that are not there.
    func pool(_ itemType: String) -> [ItemID] {
        switch itemType {
        case "Person": return (1...14).map { ItemID.int(Int64($0)) }
        case "Album":
            return compositeAlbums
                ? ["x", "y"].flatMap { label in (1...6).map { ItemID.composite([.string(label), .int(Int64($0))]) } }
                : (1...12).map { ItemID.int(Int64($0)) }
        case "Track": return (1...16).map { ItemID.string("t\($0)") }
        default: return (1...14).map { ItemID.int(Int64($0 * 10)) }
        }
    }

    /// What the referring values of an item are drawn from.
    enum References {
        /// Sometimes nothing, most often an item held, otherwise any identifier of the pool.
        case any
        /// Sometimes nothing, otherwise an item held: the references hold.
        case holding
        /// Always an item held: the references hold, and every referring attribute is set.
        case complete
    }

    /// The referring values of `relation`, drawn as `references` says from `held` and the pool;
    /// nothing is every attribute cleared.
    mutating func referringValues(_ relation: DataStoreRelation, held: [ItemID], _ references: References = .any) -> [String: Value] {
        let id: ItemID
        let roll = Double.random(in: 0..<1, using: &generator)
        if (references != .complete && roll < 0.15) || (held.isEmpty && references != .any) {
            return Dictionary(uniqueKeysWithValues: relation.attributes.map { ($0, Value.null) })
        } else if (roll < 0.8 && !held.isEmpty) || references != .any {
            id = pick(held)
        } else {
            id = pick(pool(relation.relatedType))
        }
        return Dictionary(uniqueKeysWithValues: zip(relation.attributes, id.components.map(\.value)).map { ($0, $1) })
    }

    /// A new item of `itemType` whose references are drawn from `held` (by type).
    mutating func item(_ itemType: String, id: ItemID, held: [String: [ItemID]], _ references: References = .any) -> Item {
        var attributes: [String: Value] = ["rank": .int(Int64(number(0...4)))]
        for relation in relations where relation.itemType == itemType {
            attributes.merge(referringValues(relation, held: held[relation.relatedType] ?? [], references)) { _, new in new }
        }
        return Item(itemType: itemType, id: id, attributes: attributes)
    }

    // MARK: Blocks

    /// Whether `model` has run low enough on items that the next block should top it up.
    public func needsTopUp(_ model: ReferenceRelations) -> Bool {
        Self.itemTypes.reduce(0) { $0 + model.items(ofType: $1).count } < 16
    }

    /// A block that inserts items until each type has its target count, every reference to an
    /// item held afterwards, so that it commits.
    ///
    /// The first one, into an empty store, sets every referring attribute, so that its commit
    /// makes every column an SQL store will need. A PostgreSQL store otherwise fails with
    /// `unsupported` (`cached plan must not change result type`) when a block that created a
    /// table or column and read an item by identifier (as the reference check does) is rolled
    /// back, and a later block creates it with other columns: a bug of that store's statement
    /// cache, not of relations, which this test leaves to its own test.
    public mutating func topUp(_ model: ReferenceRelations) -> [Write] {
        let references: References = model.itemsByType.values.allSatisfy(\.isEmpty) ? .complete : .holding
        var held: [String: [ItemID]] = [:]
        var added: [(String, ItemID)] = []
        for itemType in Self.itemTypes {
            var ids = model.items(ofType: itemType).map(\.id)
            let free = pool(itemType).filter { !ids.contains($0) }.shuffled(using: &generator)
            for id in free.prefix(max(0, (Self.targetCounts[itemType] ?? 0) - ids.count)) {
                ids.append(id)
                added.append((itemType, id))
            }
            held[itemType] = ids
        }
        return added.map { .insert(item($0.0, id: $0.1, held: held, references)) }
    }

    /// A random block of one write, or now and then two to four, drawn over `model`, the items
    /// held before it; each write is drawn over the items the writes before it leave.
    public mutating func block(over model: ReferenceRelations) -> [Write] {
        var scratch = model
        let count = chance(0.7) ? 1 : number(2...4)
        return (0..<count).map { _ in
            let write = self.write(over: scratch)
            _ = write.apply(to: &scratch)
            return write
        }
    }

    mutating func write(over model: ReferenceRelations) -> Write {
        let itemType = pick(Self.itemTypes)
        let held = model.items(ofType: itemType)
        var heldByType: [String: [ItemID]] = [:]
        for type in Self.itemTypes { heldByType[type] = model.items(ofType: type).map(\.id) }
        switch Double.random(in: 0..<1, using: &generator) {
        case let roll where roll < 0.2 && pool(itemType).contains { id in !held.contains { $0.id == id } }:
            let free = pool(itemType).filter { id in !held.contains { $0.id == id } }
            return .insert(item(itemType, id: pick(free), held: heldByType))
        case ..<0.4:
            let id = !held.isEmpty && chance(0.7) ? pick(held).id : pick(pool(itemType))
            return .save(item(itemType, id: id, held: heldByType))
        case ..<0.6:
            let id = !held.isEmpty && chance(0.85) ? pick(held).id : pick(pool(itemType))
            return .deleteItem(ItemReference(itemType: itemType, id: id))
        case ..<0.72:
            return .deleteItems(request(itemType))
        case ..<0.76:
            return .deleteAllItems(itemType)
        default:
            let relation = pick(relations)
            var values = referringValues(relation, held: heldByType[relation.relatedType] ?? [])
            if relation.attributes.count > 1, chance(0.15), let first = relation.attributes.first {
                // Only one component of a composite reference: then it refers to nothing, or to
                // another album.
                values = values.filter { $0.key == first }
            }
            if chance(0.3) { values["rank"] = .int(Int64(number(0...4))) }
            return .updateItems(request(relation.itemType), values)
        }
    }

    /// A request for set-based writes: a filter on `rank`, sometimes also through relations.
    mutating func request(_ itemType: String) -> DataStoreRequest {
        var request = DataStoreRequest(itemType: itemType)
        let rank = Value.int(Int64(number(0...4)))
        request.filter = chance(0.5) ? .attribute("rank") == rank : .attribute("rank") < rank
        if chance(0.2), let filter = relatedFilter(from: itemType) { request.relatedFilters = [filter] }
        return request
    }

    /// A filter following one to three relations from `itemType` to items of a `rank`.
    mutating func relatedFilter(from itemType: String) -> RelatedFilter? {
        var chain: [DataStoreRelation] = []
        var type = itemType
        for _ in 0..<number(1...3) {
            let outgoing = relations.filter { $0.itemType == type }
            guard !outgoing.isEmpty else { break }
            let next = pick(outgoing)
            chain.append(next)
            type = next.relatedType
        }
        guard !chain.isEmpty else { return nil }
        let rank = Value.int(Int64(number(0...4)))
        return RelatedFilter(via: chain, where: chance(0.5) ? .attribute("rank") <= rank : .attribute("rank") == rank)
    }
}
