import Foundation
import Persist
import PersistGDBM
import PersistTestSupport
import Testing

/// The "Other calls" block of `MigrationGuides/FromGDBM.md`, run on a GDBM file in the raw layout:
/// each call does what the GDBM call its comment names did.
@Suite("The GDBM guide's calls")
struct GDBMCallTests {
    @Test("each call does what its GDBM call did")
    func calls() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = GDBMDataStore(path: directory.path("sessions.dbm"),
                                  options: .init(layout: .raw(itemType: "Session", attribute: "value")))
        try store.setup()
        defer { try? store.tearDown() }
        try store.writeSync { accessor in
            for (token, user) in [("a1b2", "ada"), ("c3d4", "bob")] {
                try accessor.save(Item(itemType: "Session", id: .bytes(Array(token.utf8)), attributes: ["value": .bytes(Array(user.utf8))]))
            }
        }

        // A gdbm_firstkey/gdbm_nextkey loop over every pair: streamed in GDBM's own order, in constant memory.
        var everything = DataStoreRequest(itemType: "Session")
        everything.ordering = .unspecified
        let users: [String] = try store.read { accessor in
            var users: [String] = []
            try accessor.forEachItem(forRequest: everything) { session in
                users.append(String(decoding: session["value"]?.bytesValue ?? [], as: UTF8.self))
            }
            return users
        }
        // gdbm_exists
        let known: Bool = try store.read { accessor in try accessor.item(ofType: "Session", id: .bytes(Array("a1b2".utf8))) != nil }
        // gdbm_store with GDBM_INSERT: a key already there throws alreadyExists (where GDBM returned 1).
        try store.writeSync { accessor in
            try accessor.insert(Item(itemType: "Session", id: .bytes(Array("e5f6".utf8)), attributes: ["value": .bytes(Array("cleo".utf8))]))
        }
        // gdbm_delete: whether the key was there.
        let ended: Bool = try store.writeSync { accessor in try accessor.deleteItem(ofType: "Session", id: .bytes(Array("c3d4".utf8))) }
        #expect(users.sorted() == ["ada", "bob"] && known && ended)

        #expect {
            try store.writeSync { accessor in
                try accessor.insert(Item(itemType: "Session", id: .bytes(Array("e5f6".utf8)), attributes: ["value": .bytes([])]))
            }
        } throws: { ($0 as? DataStoreError)?.code == .alreadyExists }
        #expect(try store.writeSync { accessor in try accessor.deleteItem(ofType: "Session", id: .bytes(Array("c3d4".utf8))) } == false)
        let left = try store.read { accessor in try accessor.items(forRequest: DataStoreRequest(itemType: "Session")) }
        #expect(left.map { $0.id } == [.bytes(Array("a1b2".utf8)), .bytes(Array("e5f6".utf8))])
    }
}
