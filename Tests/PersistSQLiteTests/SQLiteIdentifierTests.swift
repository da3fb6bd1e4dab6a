import Foundation
import Persist
import PersistConformance
import PersistSQLite
import PersistTestSupport
import Testing

@Suite("SQLite generates integer identifiers as SQLite itself does")
struct SQLiteIdentifierTests {
    @Test("on an AUTOINCREMENT table the next identifier is above every one the table ever had, and legacy inserts continue after Persist's")
    func autoincrement() throws {
        try withFileStore(creatingWith: """
            CREATE TABLE todo (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL);
            INSERT INTO todo (title) VALUES ('a'), ('b'), ('c');
            DELETE FROM todo WHERE id = 3;
            """) { store, path in
            let id = try store.writeSync { accessor in
                let todo = try accessor.createItem(ofType: "todo", idGeneration: .nextInteger)
                todo["title"] = "d"
                return todo.id
            }
            #expect(id == 4)
            let raw = try RawDatabase(path)
            defer { raw.close() }
            try raw.exec("INSERT INTO todo (title) VALUES ('legacy')")
            #expect(try raw.rows("SELECT id FROM todo WHERE title = 'legacy'") == [[.integer(5)]])
            #expect(try store.writeSync { accessor in try accessor.nextIntegerID(ofType: "todo") } == 6)
        }
    }

    @Test("on an INTEGER PRIMARY KEY table the next identifier is the one SQLite would choose")
    func rowid() throws {
        try withFileStore(creatingWith: """
            CREATE TABLE todo (id INTEGER PRIMARY KEY, title TEXT);
            INSERT INTO todo (id, title) VALUES (7, 'a'), (-2, 'b');
            CREATE TABLE log (line TEXT);
            INSERT INTO log (line) VALUES ('x'), ('y');
            """) { store, path in
            let ids = try store.writeSync { accessor in
                (try accessor.nextIntegerID(ofType: "todo"), try accessor.nextIntegerID(ofType: "log"))
            }
            #expect(ids == (8, 3))
            let raw = try RawDatabase(path)
            defer { raw.close() }
            try raw.exec("INSERT INTO todo (title) VALUES ('legacy')")
            #expect(try raw.rows("SELECT max(id) FROM todo") == [[.integer(8)]])
        }
    }

    @Test("a child of the store stays above an AUTOINCREMENT table's sequence too, and its merge keeps that identifier")
    func childAutoincrement() throws {
        try withFileStore(creatingWith: """
            CREATE TABLE todo (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT);
            INSERT INTO todo (title) VALUES ('a'), ('b'), ('c');
            DELETE FROM todo WHERE id = 3;
            """) { store, path in
            let child = try store.makeChildDataStore()
            try child.setup()
            defer { try? child.tearDown() }
            let id = try child.writeSync { accessor in
                let todo = try accessor.createItem(ofType: "todo", idGeneration: .nextInteger)
                todo["title"] = "d"
                return todo.id
            }
            #expect(id == 4)
            try store.merge(child)
            let raw = try RawDatabase(path)
            defer { raw.close() }
            #expect(try raw.rows("SELECT id FROM todo WHERE title = 'd'") == [[.integer(4)]])
        }
    }
}
