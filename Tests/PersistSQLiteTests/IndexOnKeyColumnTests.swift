import Persist
import PersistConformance
import PersistSQLite
import PersistTestSupport
import Testing

/// Declaring an index over a name no attribute of an adopted table can have: its key column, a
/// generated column, or a column's name in another ASCII case.
@Suite("SQLite ensureIndex on names that cannot be attributes")
struct IndexOnKeyColumnTests {
    @Test("ensureIndex over the key, a generated column or another case of a column is refused and declares nothing",
          arguments: [["id"], ["g"], ["V"], ["v", "g"]])
    func refused(attributes: [String]) throws {
        try withFileStore(creatingWith: """
            CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER, g INTEGER GENERATED ALWAYS AS (v * 2) VIRTUAL);
            INSERT INTO t (id, v) VALUES (1, 1), (2, 2);
            """) { store, path in
            let refused = expectError(.invalidArgument) {
                try store.writeSync { try $0.ensureIndex(ofType: "t", on: attributes, unique: false) }
            }
            #expect(refused?.message.contains("cannot be an attribute") == true, "\(refused?.message ?? "")")
            #expect(try store.read { try $0.indexes(ofType: "t") }.isEmpty)
            let raw = try RawDatabase(path)
            defer { raw.close() }
            #expect(try raw.rows("SELECT count(*) FROM sqlite_master WHERE name = 'persist_indexes'") == [[.integer(0)]])
            #expect(try store.writeSync { try $0.ensureIndex(ofType: "t", on: ["v"], unique: false) })
        }
    }
}
