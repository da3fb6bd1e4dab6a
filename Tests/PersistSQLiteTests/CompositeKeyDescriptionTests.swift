@testable import Persist
import PersistSQLite
import PersistTestSupport
import Testing

/// What an SQLite source tells a migration of a table keyed by several columns, or by none.
@Suite("An SQLite table's description names a composite key, and a table with no declared key as keyless")
struct CompositeKeyDescriptionTests {
    /// The description's field `name`, read by reflection (the description type is internal to the SQL modules).
    static func field<T>(_ name: String, of schema: any CarriedSchema, as type: T.Type) -> T? {
        Mirror(reflecting: schema).children.first { $0.label == name }?.value as? T
    }

    @Test("primaryKey lists the key columns in key order with no single key; keyless only without any PRIMARY KEY")
    func describe() throws {
        try withFileStore(creatingWith: """
            CREATE TABLE PlaylistTrack (TrackId INTEGER NOT NULL, PlaylistId INTEGER NOT NULL, PRIMARY KEY (PlaylistId, TrackId));
            CREATE TABLE log (message TEXT);
            CREATE TABLE r (k REAL PRIMARY KEY, v);
            CREATE TABLE t (id INTEGER PRIMARY KEY, v);
            """) { store, _ in
            let schemas = try store.read { accessor in
                try ["PlaylistTrack", "log", "r", "t"].map { try accessor.reader.schemaDescribing?.copySchema(ofType: $0)?.schema }
            }
            let described = schemas.compactMap { $0 }
            try #require(described.count == 4)
            let keys = described.map { Self.field("primaryKey", of: $0, as: [String].self) }
            #expect(keys == [["PlaylistId", "TrackId"], [], [], []])
            let keyless = described.map { Self.field("isKeyless", of: $0, as: Bool.self) }
            #expect(keyless == [false, true, false, false])
            // The single key column, an optional: present only for the INTEGER PRIMARY KEY.
            let singleKeys = described.map { schema in
                Mirror(reflecting: schema).children.first { $0.label == "key" }.map { !Mirror(reflecting: $0.value).children.isEmpty }
            }
            #expect(singleKeys == [false, false, false, true])
        }
    }
}
