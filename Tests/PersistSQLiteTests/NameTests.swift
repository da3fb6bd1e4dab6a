import Foundation
import Persist
import PersistConformance
import PersistSQLite
import Testing
import PersistTestSupport

/// Names SQLite treats specially: reserved prefixes, the store's own names, and names that differ
/// only in ASCII case (SQLite compares identifiers without regard to it).
@Suite("SQLiteDataStore stores hostile names safely and refuses names SQLite cannot keep apart")
struct NameTests {
    @Test("item types SQLite or the store reserve are invalidArgument with a clear message",
          arguments: ["sqlite_things", "SQLITE_Things", "persist_columns", "Persist_Columns"])
    func reservedTypeNames(name: String) throws {
        try withFileStore { store, path throws in
            let error = expectError(.invalidArgument) {
                try store.writeSync { try $0.insert(Item(itemType: name, id: 1, attributes: ["v": 1])) }
            }
            #expect(error?.message.contains(path) == true)
            #expect(error?.message.contains(String(reflecting: name)) == true)
            #expect(try store.read { try $0.itemTypes() }.isEmpty)
            #expect(try allItems(store, name).isEmpty)
        }
    }

    @Test("the key column's name is reserved for attributes of created tables")
    func reservedAttributeName() throws {
        try withFileStore { store, _ throws in
            for name in ["persist_id", "PERSIST_ID"] {
                let error = expectError(.invalidArgument) {
                    try store.writeSync { try $0.insert(Item(itemType: "Note", id: 1, attributes: [name: 1])) }
                }
                #expect(error?.message.contains("reserved") == true)
            }
            try store.writeSync { try $0.insert(Item(itemType: "Note", id: 1, attributes: ["id": 1, "rowid": 2])) }
            expectError(.invalidArgument) {
                try store.writeSync { try $0.save(Item(itemType: "Note", id: 1, attributes: ["persist_id": "x"])) }
            }
            #expect(try allItems(store, "Note") == [Item(itemType: "Note", id: 1, attributes: ["id": 1, "rowid": 2])])
        }
    }

    @Test("names differing only in ASCII case are refused; other case differences are distinct")
    func caseFolding() throws {
        try withFileStore { store, _ throws in
            try store.writeSync { try $0.insert(Item(itemType: "Note", id: 1, attributes: ["name": "a", "é": 1, "É": 2])) }
            expectError(.invalidArgument) {
                try store.writeSync { try $0.insert(Item(itemType: "NOTE", id: 2)) }
            }
            expectError(.invalidArgument) {
                try store.writeSync { try $0.save(Item(itemType: "Note", id: 1, attributes: ["Name": "b"])) }
            }
            expectError(.invalidArgument) {
                try store.writeSync { try $0.insert(Item(itemType: "Fresh", id: 1, attributes: ["x": 1, "X": 2])) }
            }
            #expect(try allItems(store, "NOTE").isEmpty)
            #expect(try store.read { try $0.item(ofType: "note", id: 1) } == nil)
            #expect(try allItems(store, "Note") == [Item(itemType: "Note", id: 1, attributes: ["name": "a", "é": 1, "É": 2])])
            var request = DataStoreRequest(itemType: "Note")
            request.filter = .attribute("NAME") == "a"
            #expect(try store.read { try $0.countItems(forRequest: request) } == 0)
            #expect(try store.read { try $0.itemTypes() } == ["Note"])
        }
    }

    @Test("hostile and very long names are stored as given and inject nothing")
    func hostileNames() throws {
        try withFileStore { store, path throws in
            try store.withRawHandle { db in try RawDatabase(borrowing: db).exec("CREATE TABLE x (v); INSERT INTO x VALUES (1);") }
            let long = String(repeating: "n", count: 10_000)
            let names = ["Robert'); DROP TABLE x;--", "\"", "x\"; DROP TABLE x; --", "?", "?1", ":name", long]
            let values: [Value] = ["'); DROP TABLE x;--", "\" OR 1=1 --", "?", .bytes(Array("'); DELETE FROM x;".utf8))]
            try store.writeSync { accessor throws in
                for name in names {
                    var attributes: [String: Value] = [:]
                    for (index, value) in values.enumerated() { attributes["\(name)\(index)"] = value }
                    try accessor.insert(Item(itemType: name, id: .string(name), attributes: attributes))
                }
            }
            for name in names {
                var request = DataStoreRequest(itemType: name)
                request.filter = .attribute("\(name)0") == values[0] && .attribute("\(name)3").contains(values[3])
                request.sortDescriptors = [.descending("\(name)1")]
                let found = try store.read { try $0.items(forRequest: request) }
                #expect(found.count == 1 && found.first?.id == .string(name))
                #expect(found.first?["\(name)2"] == "?")
            }
            #expect(Set(try store.read { try $0.itemTypes() }) == Set(names + ["x"]))
            let raw = try RawDatabase(path)
            #expect(try raw.rows("SELECT v FROM x") == [[.integer(1)]])
        }
    }

    @Test("an item type named like an existing index or view is refused")
    func takenNames() throws {
        try withFileStore { store, _ throws in
            try store.withRawHandle { db in
                try RawDatabase(borrowing: db).exec("""
                    CREATE TABLE t (id INTEGER PRIMARY KEY, v); CREATE INDEX t_by_v ON t (v);
                    CREATE VIEW summary AS SELECT count(*) FROM t;
                    """)
            }
            for name in ["t_by_v", "summary", "SUMMARY"] {
                let error = expectError(.invalidArgument) {
                    try store.writeSync { try $0.insert(Item(itemType: name, id: 1)) }
                }
                #expect(error?.message.contains("choose another item type name") == true)
            }
            try store.writeSync { try $0.insert(Item(itemType: "t", id: 1, attributes: ["v": "kept"])) }
            #expect(try allItems(store, "t").first?["v"] == "kept")
        }
    }
}
