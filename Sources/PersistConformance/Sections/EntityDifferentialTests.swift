import Foundation
import Persist
import Testing

/// The typed path against the item path: the same random entities stored through typed
/// `insert`, `update`, `save` and `synchronize` (one twin item type) and through items made by
/// `makeItem()` (the other), then read back both ways. Rows, items and entities must be identical.
public enum EntityDifferentialTests {
    /// How many sample entities one run stores.
    public static let sampleCount = 48

    static let all: [ConformanceTest] = [
        ConformanceTest("random entities stored and read through the typed path and the item path are identical",
                        group: .differential) { context in
            let store = try context.makeStore()
            try run(on: store, seed: DifferentialTests.seed)
        },
        ConformanceTest("entities whose keys vary, or that cannot be stored or read, behave as on the item path",
                        group: .differential) { context in
            let store = try context.makeStore()
            try runIrregular(on: store, seed: DifferentialTests.seed)
        },
        ConformanceTest("typed writes honour unique indexes and generated integer identifiers as item writes do",
                        group: .differential) { context in
            let store = try context.makeStore()
            try store.writeSync { accessor in
                try accessor.ensureIndex(ofType: Strict.itemType, on: ["value"], unique: true)
                try accessor.insert(Strict(id: 1, value: 10))
                try accessor.save(Strict(id: 2, value: 20))
            }
            let clashes: [(typed: (DataStoreReadWriteAccessor) throws -> Void, item: (DataStoreReadWriteAccessor) throws -> Void)] = [
                ({ try $0.insert(Strict(id: 3, value: 10)) }, { try $0.insert(Strict(id: 3, value: 10).makeItem()) }),
                ({ try $0.save(Strict(id: 3, value: 20)) }, { try $0.save(Strict(id: 3, value: 20).makeItem()) }),
                ({ try $0.update(Strict(id: 2, value: 10)) }, { try $0.save(Strict(id: 2, value: 10).makeItem()) }),
                ({ _ = try $0.synchronize([Strict(id: 1, value: 10), Strict(id: 2, value: 10)]) },
                 { try $0.save(Strict(id: 2, value: 10).makeItem()) }),
            ]
            for clash in clashes {
                let typed = expectError(.uniqueViolation) { try store.writeSync(clash.typed) }
                let general = expectError(.uniqueViolation) { try store.writeSync(clash.item) }
                #expect(typed?.message == general?.message && typed?.items == general?.items)
            }
            #expect(try store.read { try $0.getAll(Strict.self) } == [Strict(id: 1, value: 10), Strict(id: 2, value: 20)])
            let generated = try store.writeSync { accessor in
                let first = try accessor.nextIntegerID(ofType: Strict.itemType)
                try accessor.insert(Strict(id: Int(first) + 5, value: 30))
                try accessor.save(Strict(id: Int(first) + 6, value: 31))
                return (first, try accessor.nextIntegerID(ofType: Strict.itemType))
            }
            #expect(generated.1 > generated.0 + 6, "a generated identifier is above those typed writes stored")
        },
    ]

    /// Stores random ``EntitySample``s as ``TypedTwin`` through the typed path and as
    /// ``ItemTwin`` through items, in rounds of inserts, updates, saves and a synchronize, and
    /// checks after each round that both twins hold identical items and read back identical
    /// entities, through `getAll`, `getById` and `getAll(_:forRequest:)`.
    ///
    /// Leaves both twins stored, so that a wrapper's own tests can compare their raw rows.
    public static func run(on store: any DataStore, seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        // The first samples have no optionals, so that a plan learned from them grows later.
        var samples = (0..<sampleCount).map { number in
            EntitySample<TypedTwin>.random(number: number, bare: number < 3, using: &generator)
        }

        try store.writeSync { accessor in
            for sample in samples {
                try accessor.insert(sample)
                try accessor.insert(sample.twin(ItemTwin.self).makeItem())
            }
        }
        try compare(store, expecting: samples, round: "insert")

        // Every attribute of both twins also meets another kind (an item written and deleted), so
        // that the rounds below run over columns holding a mix of kinds.
        try store.writeSync { accessor in
            for itemType in [TypedTwin.itemType, ItemTwin.itemType] {
                let template = try samples[samples.count - 1].twin(ItemTwin.self).makeItem()
                let mixed = Item(itemType: itemType, id: "mixed kinds",
                                 attributes: template.attributes.mapValues(MixedKindTests.anotherKind))
                try accessor.insert(mixed)
                try accessor.delete(item: mixed)
            }
        }
        try compare(store, expecting: samples, round: "insert, then other kinds in every attribute")

        // Updates and saves: half of the samples change, a few new ones are saved.
        try store.writeSync { accessor in
            for index in samples.indices where index % 2 == 0 {
                var changed = EntitySample<TypedTwin>.random(number: index, using: &generator)
                changed.id = samples[index].id
                samples[index] = changed
                let item = try changed.twin(ItemTwin.self).makeItem()
                if index % 4 == 0 {
                    try accessor.update(changed)
                    #expect(try accessor.item(ofType: item.itemType, id: item.id) != nil)
                } else {
                    try accessor.save(changed)
                }
                try accessor.save(item)
            }
            for number in sampleCount..<(sampleCount + 4) {
                let fresh = EntitySample<TypedTwin>.random(number: number, using: &generator)
                samples.append(fresh)
                try accessor.save(fresh)
                try accessor.save(fresh.twin(ItemTwin.self).makeItem())
            }
        }
        try compare(store, expecting: samples, round: "update and save")

        // Synchronize: keep some unchanged, change some, drop some, add some.
        var wanted: [EntitySample<TypedTwin>] = []
        for (index, sample) in samples.enumerated() {
            switch index % 4 {
            case 0: wanted.append(sample)
            case 1:
                var changed = EntitySample<TypedTwin>.random(number: index, using: &generator)
                changed.id = sample.id
                wanted.append(changed)
            case 2: break
            default: wanted.append(sample)
            }
        }
        for number in (sampleCount + 4)..<(sampleCount + 8) {
            wanted.append(EntitySample<TypedTwin>.random(number: number, using: &generator))
        }
        let expected = try synchronizeItems(store, to: wanted.map { try $0.twin(ItemTwin.self).makeItem() })
        let result = try store.writeSync { accessor in try accessor.synchronize(wanted) }
        #expect(result.added.map(\.id) == expected.added, "synchronize added")
        #expect(result.updated.map(\.id) == expected.updated, "synchronize updated")
        #expect(result.removed == expected.removed, "synchronize removed")
        #expect(result.unchanged == expected.unchanged, "synchronize unchanged")
        try compare(store, expecting: wanted, round: "synchronize")

        // Attributes outside the model: reads ignore them, synchronize replaces the item.
        let extra = wanted[0]
        try store.writeSync { accessor in
            let item = try extra.makeItem()
            for twin in [TypedTwin.itemType, ItemTwin.itemType] {
                let attributes = item.attributes.merging(["unmodelled": 7]) { $1 }
                try accessor.save(Item(itemType: twin, id: item.id, attributes: attributes))
            }
        }
        let typedAgain = try store.read { try $0.getAll(EntitySample<TypedTwin>.self) }
        #expect(try identical(typedAgain, sortedByID(wanted)), "getAll with an attribute outside the model")
        let resync = try store.writeSync { accessor in try accessor.synchronize(wanted) }
        #expect(resync.updated.map(\.id) == [extra.id] && resync.added.isEmpty && resync.removed.isEmpty,
                "synchronize replaces an item holding an attribute outside the model")
        try store.writeSync { accessor in
            try accessor.save(extra.twin(ItemTwin.self).makeItem())
        }
        try compare(store, expecting: wanted, round: "attributes outside the model")
    }

    /// What `synchronize` must do, done with items on ``ItemTwin``: the identifiers added and
    /// updated in the collection's order, those removed in identifier order, and the count unchanged.
    private static func synchronizeItems(
        _ store: any DataStore, to items: [Item]
    ) throws -> (added: [String], updated: [String], removed: [ItemID], unchanged: Int) {
        try store.writeSync { accessor in
            let stored = try accessor.items(forRequest: DataStoreRequest(itemType: ItemTwin.itemType))
            let storedByID = Dictionary(stored.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let wantedIDs = Set(items.map(\.id))
            let removed = stored.map(\.id).filter { !wantedIDs.contains($0) }
            for id in removed { try accessor.deleteItem(ofType: ItemTwin.itemType, id: id) }
            var added: [String] = []
            var updated: [String] = []
            var unchanged = 0
            for item in items {
                guard case .string(let id) = item.id else { continue }
                if let old = storedByID[item.id] {
                    if old == item {
                        unchanged += 1
                    } else {
                        updated.append(id)
                        try accessor.save(item)
                    }
                } else {
                    added.append(id)
                    try accessor.insert(item)
                }
            }
            return (added, updated, removed, unchanged)
        }
    }

    /// The entities in the order reads return them: by identifier.
    private static func sortedByID<E: DataStoreEntity>(_ entities: [E]) throws -> [E] {
        try entities.map { (try E.itemID(for: $0.id), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// Whether two lists of entities store the very same items (values compared as the store
    /// compares them: NaN equals NaN, doubles bit for bit).
    private static func identical<A: DataStoreEntity, B: DataStoreEntity>(_ left: [A], _ right: [B]) throws -> Bool {
        guard left.count == right.count else { return false }
        for (a, b) in zip(left, right) {
            let (itemA, itemB) = (try a.makeItem(), try b.makeItem())
            guard itemA.id == itemB.id, itemA.attributes == itemB.attributes else { return false }
        }
        return true
    }

    /// Checks that both twins hold exactly `samples` (as items), and read back identically.
    private static func compare(_ store: any DataStore, expecting samples: [EntitySample<TypedTwin>], round: String) throws {
        let expected = try samples.map { try $0.makeItem() }.sorted { $0.id < $1.id }
        try store.read { accessor in
            let typedItems = try accessor.items(forRequest: DataStoreRequest(itemType: TypedTwin.itemType))
            let itemItems = try accessor.items(forRequest: DataStoreRequest(itemType: ItemTwin.itemType))
            #expect(typedItems == expected, "\(round): the typed path stored other items")
            #expect(itemItems.map { $0.replacingType(TypedTwin.itemType) } == expected,
                    "\(round): the item path stored other items")

            let typed = try accessor.getAll(EntitySample<TypedTwin>.self)
            let viaItems = try accessor.getAll(EntitySample<ItemTwin>.self)
            let general = try typedItems.map(EntitySample<TypedTwin>.init(item:))
            #expect(try identical(typed, general), "\(round): getAll differs from decoding the items")
            #expect(try identical(viaItems, general), "\(round): getAll of the item twin differs")

            for sample in samples {
                let byID = try accessor.getById(EntitySample<TypedTwin>.self, id: sample.id)
                let twinByID = try accessor.getById(EntitySample<ItemTwin>.self, id: sample.id)
                #expect(try identical([byID].compactMap { $0 }, [sample]), "\(round): getById \(sample.id)")
                #expect(try identical([twinByID].compactMap { $0 }, [sample]), "\(round): getById of the twin \(sample.id)")
            }
            #expect(try accessor.getById(EntitySample<TypedTwin>.self, id: "absent") == nil)

            for request in requests() {
                var typedRequest = request
                typedRequest.itemType = TypedTwin.itemType
                var twinRequest = request
                twinRequest.itemType = ItemTwin.itemType
                let found = try accessor.getAll(EntitySample<TypedTwin>.self, forRequest: typedRequest)
                let twinFound = try accessor.getAll(EntitySample<ItemTwin>.self, forRequest: twinRequest)
                let reference = try accessor.items(forRequest: typedRequest).map(EntitySample<TypedTwin>.init(item:))
                #expect(try identical(found, reference),
                        "\(round): getAll(forRequest:) \(request.filter.map { "\($0)" } ?? "all")")
                #expect(try identical(twinFound, reference), "\(round): getAll(forRequest:) of the twin")
            }
        }
    }

    /// Requests over the samples' attributes: filters, sorts, windows.
    private static func requests() -> [DataStoreRequest] {
        var requests: [DataStoreRequest] = []
        var request = DataStoreRequest(itemType: TypedTwin.itemType)
        request.filter = .attribute("count") >= 0
        request.setSort(byKey: "title", ascending: true)
        requests.append(request)
        request = DataStoreRequest(itemType: TypedTwin.itemType)
        request.filter = .attribute("flag") == true && .attribute("nickname").isNil
        request.setSort(byKey: "ratio", ascending: false)
        requests.append(request)
        request = DataStoreRequest(itemType: TypedTwin.itemType)
        request.setSort(byKey: "when", ascending: true)
        request.offset = 3
        request.limit = 7
        requests.append(request)
        request = DataStoreRequest(itemType: TypedTwin.itemType)
        request.filter = .attribute("title").beginsWith("l") || .attribute("kind") == "special"
        requests.append(request)
        return requests
    }

    /// Entities the plans cannot express as they are, or cannot store or read at all: each gives
    /// the same items and entities, or the same error, through the typed path and the item path.
    public static func runIrregular(on store: any DataStore, seed randomSeed: UInt64) throws {
        var generator = SeededGenerator(seed: randomSeed)
        let shifters = (0..<60).map { ShapeShifter<TypedTwin>.random(number: $0, using: &generator) }
        try store.writeSync { accessor in
            for (index, shifter) in shifters.enumerated() {
                if index.isMultiple(of: 3) {
                    try accessor.save(shifter)
                } else {
                    try accessor.insert(shifter)
                }
                try accessor.insert(shifter.twin(ItemTwin.self).makeItem())
            }
        }
        try store.read { accessor in
            let typedItems = try accessor.items(forRequest: DataStoreRequest(itemType: ShapeShifter<TypedTwin>.itemType))
            let itemItems = try accessor.items(forRequest: DataStoreRequest(itemType: ShapeShifter<ItemTwin>.itemType))
            #expect(typedItems == itemItems.map { $0.replacingType(ShapeShifter<TypedTwin>.itemType) })
            #expect(typedItems == (try shifters.map { try $0.makeItem() }.sorted { $0.id < $1.id }))
            #expect(try typedItems.map(ShapeShifter<TypedTwin>.init(item:)) == shifters, "the model decodes what it encodes")
            #expect(try accessor.getAll(ShapeShifter<TypedTwin>.self) == shifters)
            #expect(try accessor.getAll(ShapeShifter<ItemTwin>.self) == shifters.map { $0.twin(ItemTwin.self) })
            for shifter in shifters.prefix(10) {
                #expect(try accessor.getById(ShapeShifter<TypedTwin>.self, id: shifter.id) == shifter)
            }
        }
        let changed = shifters.map { ShapeShifter<TypedTwin>.random(number: $0.id, using: &generator) }
        let result = try store.writeSync { accessor in try accessor.synchronize(changed.prefix(40)) }
        #expect(result.removed.count == 20 && result.added.isEmpty)
        #expect(result.updated.count + result.unchanged == 40)
        #expect(try store.read { try $0.getAll(ShapeShifter<TypedTwin>.self) } == Array(changed.prefix(40)))

        // Errors: the typed path fails exactly as the item path does.
        let overflowing = Overflowing(id: 1, huge: .max)
        let typedError = expectError(.typeMismatch) { try store.writeSync { try $0.insert(overflowing) } }
        let itemError = expectError(.typeMismatch) { try store.writeSync { try $0.insert(overflowing.makeItem()) } }
        // makeItem() ran outside the store; insert names the store too.
        #expect(typedError?.message == itemError.map { "\($0.message) (store \(store.location))" })
        #expect(typedError?.path == store.location)
        let existing = shifters[1]
        let duplicate = expectError(.alreadyExists) { try store.writeSync { try $0.insert(existing) } }
        let duplicateItem = expectError(.alreadyExists) { try store.writeSync { try $0.insert(existing.makeItem()) } }
        #expect(duplicate?.message == duplicateItem?.message && duplicate?.items == duplicateItem?.items)
        expectError(.notFound) { try store.writeSync { try $0.update(Strict(id: 404, value: 1)) } }
        for write in [{ try $0.insert(Nameless(id: 1)) }, { try $0.save(Nameless(id: 1)) }, { try $0.update(Nameless(id: 1)) },
                      { _ = try $0.synchronize([Nameless(id: 1)]) }] as [(DataStoreReadWriteAccessor) throws -> Void] {
            let typed = expectError(.invalidArgument) { try store.writeSync(write) }
            let general = expectError(.invalidArgument) { try store.writeSync { try $0.insert(Nameless(id: 1).makeItem()) } }
            #expect(typed?.message == general?.message)
        }
        try seed(store, [Item(itemType: Strict.itemType, id: 1, attributes: ["value": 2.5])])
        let readError = expectError(.typeMismatch) { try store.read { try $0.getAll(Strict.self) } }
        let generalError = expectError(.typeMismatch) {
            try store.read { try $0.items(forRequest: DataStoreRequest(itemType: Strict.itemType)).map(Strict.init(item:)) }
        }
        #expect(readError?.message == generalError?.message && readError?.items == generalError?.items)
        let byIDError = expectError(.typeMismatch) { try store.read { try $0.getById(Strict.self, id: 1) } }
        #expect(byIDError?.message == generalError?.message)
    }
}

extension Item {
    /// The same item under another item type.
    func replacingType(_ itemType: String) -> Item {
        Item(itemType: itemType, id: id, attributes: attributes)
    }
}
