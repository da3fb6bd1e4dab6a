import Foundation
import Persist
import PersistConformance
import PersistGDBM
import PersistTestSupport
import Testing

@Suite("GDBM never gives out an integer identifier it wrote while the store was open")
struct GDBMIdentifierTests {
    @Test("after items it wrote are deleted, the next identifier stays above them, in the store and in a child of it")
    func staysAboveDeletedWrites() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = GDBMDataStore(path: directory.path("store.gdbm"), options: .init(logger: .quiet))
        try store.setup()
        defer { try? store.tearDown() }
        // No identifier has been asked for yet when the largest ones are deleted.
        try seed(store, (1...10).map { Item(itemType: "Todo", id: .int($0), attributes: ["rank": .int($0)]) })
        var top = DataStoreRequest(itemType: "Todo")
        top.filter = .attribute("rank") > 8
        #expect(try store.writeSync { accessor in try accessor.deleteItems(forRequest: top) } == 2)
        let child = try store.makeChildDataStore()
        try child.setup()
        defer { try? child.tearDown() }
        #expect(try child.writeSync { accessor in try accessor.nextIntegerID(ofType: "Todo") } == 11)
        #expect(try store.writeSync { accessor in try accessor.nextIntegerID(ofType: "Todo") } == 12)
    }
}

@Suite("GDBM gives each spelling of a type name identifiers above its own items")
struct GDBMSpelledIdentifierTests {
    @Test("a block asking for identifiers of two spellings of one name, which GDBM keeps apart, gets one above each type's items, in the store and in a child")
    func eachSpellingStaysAboveItsItems() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = GDBMDataStore(path: directory.path("store.gdbm"), options: .init(logger: .quiet))
        try store.setup()
        defer { try? store.tearDown() }
        let composed = "Caf\u{E9}", decomposed = "Cafe\u{301}"
        try seed(store, [Item(itemType: composed, id: 1)] + (1...20).map { Item(itemType: decomposed, id: .int($0)) })
        // Opened again, the store knows each type's identifiers from the file alone.
        try store.tearDown()
        try store.setup()
        let child = try store.makeChildDataStore()
        try child.setup()
        defer { try? child.tearDown() }
        for target in [child, store as any DataStore] {
            let created = try target.writeSync { accessor in
                [try accessor.createItem(ofType: composed, idGeneration: .nextInteger).id,
                 try accessor.createItem(ofType: decomposed, idGeneration: .nextInteger).id]
            }
            #expect(created[1] > 20, "\(target.location) gave \(created)")
        }
    }
}
