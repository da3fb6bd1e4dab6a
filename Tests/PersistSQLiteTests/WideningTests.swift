import Foundation
import Persist
import PersistConformance
import PersistSQLite
import Testing
import PersistTestSupport

@Suite("Created columns widen to hold numbers, strings and bytes together")
struct WideningTests {
    func note(_ id: Int64, _ value: Value) -> Item {
        Item(itemType: "Note", id: .int(id), attributes: ["v": value])
    }

    @Test("a column of numbers takes strings and bytes, and each value keeps its storage class")
    func widens() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("store.sqlite")
        let mixed: [Item] = [note(1, 5), note(2, 2.5), note(3, "five"), note(4, .bytes([5])), note(5, "NaN")]
        do {
            let store = SQLiteDataStore(path: path, options: quietOptions())
            try store.setup()
            defer { try? store.tearDown() }
            try store.writeSync { accessor in try accessor.insert(mixed[0]) }
            // A reader before the widening has cached the typed schema; it must not keep using it.
            #expect(try store.read { try $0.items(forRequest: DataStoreRequest(itemType: "Note")) } == [mixed[0]])
            try store.writeSync { accessor in for item in mixed.dropFirst() { try accessor.insert(item) } }
            #expect(try store.read { try $0.items(forRequest: DataStoreRequest(itemType: "Note")) } == mixed)
            var request = DataStoreRequest(itemType: "Note")
            request.filter = .attribute("v") > 3
            #expect(try store.read { try $0.items(forRequest: request) }.map(\.id) == [1])
            expectError(.typeMismatch) { try store.writeSync { try $0.insert(note(6, true)) } }
            expectError(.typeMismatch) { try store.writeSync { try $0.insert(note(7, .double(.nan))) } }
        }
        let raw = try RawDatabase(path)
        #expect(try raw.rows(#"SELECT typeof("v") FROM "Note" ORDER BY "persist_id""#)
            == [[.text("integer")], [.text("real")], [.text("text")], [.text("blob")], [.text("text")]])
        #expect(try raw.rows(#"SELECT count(*) FROM "persist_columns" WHERE table_name = 'Note' AND column_name = 'v'"#)
            == [[.integer(0)]])
        raw.close()
        let reopened = SQLiteDataStore(path: path, options: quietOptions())
        try reopened.setup()
        defer { try? reopened.tearDown() }
        #expect(try reopened.read { try $0.items(forRequest: DataStoreRequest(itemType: "Note")) } == mixed)
    }

    @Test("a column of numbers holding NaN does not widen")
    func nanStays() throws {
        try withFileStore { store, _ in
            try store.writeSync { accessor in try accessor.insert(note(1, .double(.nan))) }
            let error = expectError(.typeMismatch) { try store.writeSync { try $0.insert(note(2, "text")) } }
            #expect(error?.message.contains("NaN") == true)
            #expect(try store.read { try $0.items(forRequest: DataStoreRequest(itemType: "Note")) } == [note(1, .double(.nan))])
        }
    }

    @Test("booleans, dates and nested values never share a column with other kinds")
    func typedKindsStay() throws {
        try withFileStore { store, _ in
            try store.writeSync { accessor in try accessor.insert(note(1, true)) }
            expectError(.typeMismatch) { try store.writeSync { try $0.insert(note(2, 1)) } }
            try store.writeSync { accessor in try accessor.insert(Item(itemType: "Other", id: 1, attributes: ["s": "x"])) }
            expectError(.typeMismatch) {
                try store.writeSync { try $0.insert(Item(itemType: "Other", id: 2, attributes: ["s": .date(Date())])) }
            }
        }
    }
}
