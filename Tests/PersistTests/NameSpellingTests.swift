import Persist
import Testing

/// The in-memory store and its children take two spellings of one text that Swift finds equal for
/// one name (the Contract article): declared indexes and typed live queries do too.
@Suite("Names spelled in two Unicode forms are one name in the in-memory store")
struct NameSpellingTests {
    static let composed = "Caf\u{E9}"
    static let decomposed = "Cafe\u{301}"

    struct Cafe: DataStoreEntity {
        static let itemType = NameSpellingTests.composed
        var id: Int64
        var name: String
    }

    func twins(_ accessor: DataStoreReadWriteAccessor) throws {
        try accessor.insert(Item(itemType: Self.decomposed, id: 1, attributes: ["name": "Corner"]))
        try accessor.insert(Item(itemType: Self.decomposed, id: 2, attributes: ["name": "Corner"]))
    }

    @Test("a unique index declared in a block refuses the other spelling's items in that block, as after it")
    func declaredInBlock() throws {
        let store = InMemoryDataStore()
        try store.setup()
        defer { try? store.tearDown() }
        let error = #expect(throws: DataStoreError.self) {
            try store.writeSync { accessor in
                try accessor.ensureIndex(ofType: Self.composed, on: ["name"], unique: true)
                try twins(accessor)
            }
        }
        #expect(error?.code == .uniqueViolation)
        try store.writeSync { accessor in try accessor.ensureIndex(ofType: Self.composed, on: ["name"], unique: true) }
        #expect(throws: DataStoreError.self) { try store.writeSync { accessor in try twins(accessor) } }
        #expect(try store.read { accessor in try accessor.countItems(forRequest: DataStoreRequest(itemType: Self.composed)) } == 0)
    }

    @Test("a unique index a child declared refuses the other spelling's items in the child, as its merge would")
    func declaredInChild() throws {
        let store = InMemoryDataStore()
        try store.setup()
        defer { try? store.tearDown() }
        let child = try store.makeChildDataStore()
        try child.setup()
        try child.writeSync { accessor in try accessor.ensureIndex(ofType: Self.composed, on: ["name"], unique: true) }
        #expect(try child.indexes(ofType: Self.decomposed).map(\.attributes) == [["name"]])
        let error = #expect(throws: DataStoreError.self) { try child.writeSync { accessor in try twins(accessor) } }
        #expect(error?.code == .uniqueViolation)
    }

    @Test("an index declared again on an attribute spelled the other way is the same index, in the store and in a child")
    func indexDeclaredTwice() throws {
        let store = InMemoryDataStore()
        try store.setup()
        defer { try? store.tearDown() }
        let child = try store.makeChildDataStore()
        try child.setup()
        for target in [store, child] as [any DataStore] {
            let type = target === store ? "Shop" : "Kiosk"
            let added = try target.writeSync { accessor in
                [try accessor.ensureIndex(ofType: type, on: ["caf\u{E9}"], unique: false),
                 try accessor.ensureIndex(ofType: type, on: ["cafe\u{301}"], unique: false)]
            }
            #expect(added == [true, false])
            #expect(try target.indexes(ofType: type).count == 1)
        }
    }

    @Test("a typed live query takes a request naming the entity's type in another spelling, as getAll does")
    func typedObserve() async throws {
        let store = InMemoryDataStore()
        try store.setup()
        defer { try? store.tearDown() }
        try store.writeSync { accessor in try accessor.insert(Cafe(id: 1, name: "Corner")) }
        let request = DataStoreRequest(itemType: Self.decomposed)
        let all = try await store.read { accessor in try accessor.getAll(Cafe.self, forRequest: request) }
        #expect(all.map(\.name) == ["Corner"])
        var observed: [Cafe]?
        for try await cafes in store.observe(Cafe.self, request) {
            observed = cafes
            break
        }
        #expect(observed?.map(\.name) == ["Corner"])
    }
}
