import Foundation
import Persist
import PersistConformance
import PersistGDBM
import PersistTestSupport
import Testing

/// GDBM compares item type names by their bytes, so two Unicode spellings of one name are two
/// types there; a write block's mutable items and a child of a GDBM store keep them apart as well.
@Suite("GDBM's write blocks and children keep two spellings of a type apart, as the file does")
struct GDBMChildSpellingTests {
    static let composed = "Caf\u{E9}"
    static let decomposed = "Cafe\u{301}"

    /// Runs `body` with a GDBM store on a new file, holding `items`, and a child of it.
    func withChild(of items: [Item], _ body: (GDBMDataStore, any DataStore) throws -> Void) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = GDBMDataStore(path: directory.path("store.gdbm"), options: .init(logger: .quiet))
        try store.setup()
        defer { try? store.tearDown() }
        try seed(store, items)
        let child = try store.makeChildDataStore()
        try child.setup()
        defer { try? child.tearDown() }
        try body(store, child)
    }

    @Test("deleting an item of one spelling in a child leaves the other spelling's item of that identifier, before and after the merge")
    func deleteKeepsTheOtherSpelling() throws {
        let kept = Item(itemType: Self.composed, id: "x", attributes: ["v": 1])
        try withChild(of: [kept, Item(itemType: Self.decomposed, id: "x", attributes: ["v": 2])]) { store, child in
            #expect(try child.read { try $0.itemTypes() }.count == 2)
            let added = Item(itemType: Self.composed, id: "w", attributes: ["v": 3])
            try child.writeSync { accessor in
                try accessor.save(added)
                #expect(try accessor.deleteItem(ofType: Self.decomposed, id: "x"))
            }
            #expect(try allItems(child, Self.composed) == [added, kept])
            #expect(try allItems(child, Self.decomposed).isEmpty)
            #expect(try child.read { try $0.itemTypes() }.map { Array($0.unicodeScalars) } == [Array(Self.composed.unicodeScalars)])
            try store.merge(child)
            #expect(try allItems(store, Self.composed) == [added, kept])
            #expect(try allItems(store, Self.decomposed).isEmpty)
        }
    }

    @Test("a unique index a child declares on one spelling of a type does not check the other spelling's items")
    func declaredIndexKeepsToItsSpelling() throws {
        try withChild(of: []) { store, child in
            try child.writeSync { accessor in
                try accessor.ensureIndex(ofType: Self.composed, on: ["email"], unique: true)
                try accessor.insert(Item(itemType: Self.composed, id: 1, attributes: ["email": "a"]))
                try accessor.insert(Item(itemType: Self.decomposed, id: 1, attributes: ["email": "a"]))
                try accessor.insert(Item(itemType: Self.decomposed, id: 2, attributes: ["email": "a"]))
            }
            #expect(try child.indexes(ofType: Self.decomposed).isEmpty)
            try store.merge(child)
            #expect(try store.indexes(ofType: Self.decomposed).isEmpty)
            #expect(try allItems(store, Self.decomposed).count == 2)
        }
    }

    @Test("the items of two spellings with one identifier are two mutable items in a block, in the store and in a child")
    func mutableItemsKeepToTheirSpelling() throws {
        let stored = [Item(itemType: Self.composed, id: "x", attributes: ["v": 1]),
                      Item(itemType: Self.decomposed, id: "x", attributes: ["v": 2])]
        try withChild(of: stored) { store, child in
            for target in [child, store as any DataStore] {
                try target.writeSync { accessor in
                    let composed = try #require(try accessor.mutableVersion(ofItem: stored[0]))
                    let decomposed = try #require(try accessor.mutableVersion(ofItem: stored[1]))
                    #expect(composed !== decomposed)
                    #expect(decomposed["v"] == 2)
                    decomposed["v"] = 20
                    // Deleting the other spelling's items leaves this one's mutable item usable.
                    #expect(try accessor.deleteAllItems(ofType: Self.decomposed) == 1)
                    composed["v"] = 10
                }
                #expect(try allItems(target, Self.composed).map { $0["v"] } == [10], "\(target.location)")
                #expect(try allItems(target, Self.decomposed).isEmpty, "\(target.location)")
                try target.writeSync { accessor in try accessor.save(stored[1]) }
            }
        }
    }
}
