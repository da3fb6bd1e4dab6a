import Foundation
import Persist
import PersistConformance
import PersistGDBM
import PersistTestSupport
import Testing

/// GDBM keys items by the bytes of their type's name, so `Café` written with `é` (U+00E9) and
/// with `e` and a combining acute accent (U+0301) are two types; Swift strings take them for one.
@Suite("On GDBM, relations keep two Unicode spellings of a type name apart")
struct GDBMRelationSpellingTests {
    static let composed = "Caf\u{E9}"
    static let decomposed = "Cafe\u{301}"

    static func withStore(_ body: (GDBMDataStore) throws -> Void) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = GDBMDataStore(path: directory.path("store.gdbm"), options: .init(logger: .quiet))
        try store.setup()
        defer { try? store.tearDown() }
        try body(store)
    }

    @Test("an item of the other spelling of a referring type is not checked against its relations")
    func referrerSpelling() throws {
        #expect(Self.composed == Self.decomposed)
        try Self.withStore { store in
            try store.writeSync { accessor in
                try accessor.insert(Item(itemType: "Owner", id: 1))
                try accessor.ensureRelation(ofType: Self.composed, on: ["ownerId"], to: "Owner", onDelete: .deny)
            }
            // The decomposed type has no relation: its item may hold any value.
            try store.writeSync { accessor in
                try accessor.insert(Item(itemType: Self.decomposed, id: 1, attributes: ["ownerId": 99]))
            }
            expectError(.referenceViolation) {
                try store.writeSync { try $0.insert(Item(itemType: Self.composed, id: 1, attributes: ["ownerId": 99])) }
            }
        }
    }

    @Test("deleting an item of the other spelling of a referred type applies no rule of the relations to it")
    func referredSpelling() throws {
        try Self.withStore { store in
            try store.writeSync { accessor in
                try accessor.insert(Item(itemType: Self.composed, id: 1))
                try accessor.insert(Item(itemType: Self.decomposed, id: 1))
                try accessor.insert(Item(itemType: "Visit", id: 10, attributes: ["cafe": 1]))
                try accessor.ensureRelation(ofType: "Visit", on: ["cafe"], to: Self.composed, onDelete: .cascade)
            }
            try store.writeSync { accessor in _ = try accessor.deleteItem(ofType: Self.decomposed, id: 1) }
            #expect(try store.read { try $0.item(ofType: "Visit", id: 10) } != nil, "a visit of the composed café was deleted")
            try store.writeSync { accessor in _ = try accessor.deleteItem(ofType: Self.composed, id: 1) }
            #expect(try store.read { try $0.item(ofType: "Visit", id: 10) } == nil)
        }
    }

    @Test("each spelling declares and lists its own relations, and keeps them in the file")
    func declaredPerSpelling() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("store.gdbm")
        let store = GDBMDataStore(path: path, options: .init(logger: .quiet))
        try store.setup()
        try store.writeSync { accessor in
            try accessor.insert(Item(itemType: "Owner", id: 1))
            try accessor.ensureRelation(ofType: Self.composed, on: ["ownerId"], to: "Owner", onDelete: .deny)
            #expect(try accessor.relations(ofType: Self.decomposed).isEmpty)
            let declared = try accessor.ensureRelation(ofType: Self.decomposed, on: ["ownerId"], to: "Owner", onDelete: .deny)
            #expect(Array(declared.itemType.utf8) == Array(Self.decomposed.utf8))
        }
        try store.tearDown()
        try store.setup()
        defer { try? store.tearDown() }
        for spelling in [Self.composed, Self.decomposed] {
            let listed = try store.relations(ofType: spelling)
            #expect(listed.map { Array($0.itemType.utf8) } == [Array(spelling.utf8)])
            expectError(.referenceViolation) {
                try store.writeSync { try $0.insert(Item(itemType: spelling, id: 1, attributes: ["ownerId": 99])) }
            }
        }
    }

    @Test("an item of each spelling with the same identifier is checked, each against its own type's relations")
    func bothSpellingsChecked() throws {
        try Self.withStore { store in
            try store.writeSync { accessor in
                try accessor.insert(Item(itemType: "Owner", id: 1))
                try accessor.ensureRelation(ofType: Self.composed, on: ["ownerId"], to: "Owner", onDelete: .deny)
                try accessor.ensureRelation(ofType: Self.decomposed, on: ["boss"], to: "Owner", onDelete: .deny)
            }
            expectError(.referenceViolation) {
                try store.writeSync { accessor in
                    try accessor.insert(Item(itemType: Self.composed, id: 1, attributes: ["ownerId": 1]))
                    try accessor.insert(Item(itemType: Self.decomposed, id: 1, attributes: ["boss": 99]))
                }
            }
        }
    }
}
