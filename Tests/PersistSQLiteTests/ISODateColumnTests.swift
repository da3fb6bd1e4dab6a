import Foundation
import Persist
import PersistSQLite
import PersistTestSupport
import Testing

@Suite("Columns declared DATE, DATETIME or TIMESTAMP with the kind date recorded hold ISO text")
struct ISODateColumnTests {
    /// The form a migration leaves: declared types, and the kind `date` recorded for them.
    static let migrated = """
        CREATE TABLE persist_columns (table_name TEXT NOT NULL, column_name TEXT NOT NULL, kind TEXT NOT NULL,
                                      PRIMARY KEY (table_name, column_name)) WITHOUT ROWID;
        INSERT INTO persist_columns VALUES ('ev', 'at', 'date'), ('ev', 'day', 'date');
        CREATE TABLE ev (id INTEGER PRIMARY KEY, at DATETIME, day DATE);
        INSERT INTO ev VALUES (1, '2021-01-01 00:00:00', '2021-01-01'), (2, 'n/a', NULL), (3, 5, '1999-12-31'),
                              (4, '2021-01-01 00:00:00.25', NULL), (5, NULL, NULL);
        """

    static func date(_ seconds: Double) -> Value { .date(Date(timeIntervalSinceReferenceDate: seconds)) }

    @Test("ISO text reads as dates, other values as they are; written dates are ISO text, bit-exact")
    func roundTrip() throws {
        try withFileStore(creatingWith: Self.migrated) { store, path in
            let items = try store.read { try $0.items(forRequest: DataStoreRequest(itemType: "ev")) }
            #expect(items.map { $0.attributes["at"] ?? .null } == [Self.date(631_152_000), "n/a", 5, Self.date(631_152_000.25), .null])
            #expect(items.map { $0.attributes["day"] ?? .null } == [Self.date(631_152_000), .null, Self.date(-31_708_800), .null, .null])
            let odd = Date(timeIntervalSinceReferenceDate: 0.1)
            let written = [
                Item(itemType: "ev", id: 6, attributes: ["at": .date(odd), "day": Self.date(86_400 * 3)]),
                Item(itemType: "ev", id: 7, attributes: ["at": Self.date(-31_708_800 + 0.123456)]),
            ]
            try store.writeSync { accessor in for item in written { try accessor.insert(item) } }
            #expect(try store.read { try $0.item(ofType: "ev", id: 6) } == written[0])
            #expect(try store.read { try $0.item(ofType: "ev", id: 7) } == written[1])
            let raw = try RawDatabase(path)
            defer { raw.close() }
            let rows = try raw.rows("SELECT at, day FROM ev WHERE id >= 6 ORDER BY id")
            #expect(rows == [[.text("2001-01-01 00:00:00.1"), .text("2001-01-04")], [.text("1999-12-31 00:00:00.123456"), .null]])
            // A time of day cannot be a DATE's text, and a string that spells a date would read back as one.
            #expect(throws: DataStoreError.self) {
                try store.writeSync { accessor in try accessor.insert(Item(itemType: "ev", id: 8, attributes: ["day": .date(odd)])) }
            }
            #expect(throws: DataStoreError.self) {
                try store.writeSync { accessor in try accessor.insert(Item(itemType: "ev", id: 8, attributes: ["at": "2021-01-01"])) }
            }
            #expect(throws: DataStoreError.self) {
                try store.writeSync { accessor in try accessor.insert(Item(itemType: "ev", id: 8, attributes: ["at": Self.date(1e12)])) }
            }
        }
    }

    @Test("comparisons and sorts order ISO dates as dates, apart from numbers and strings")
    func compares() throws {
        try withFileStore(creatingWith: Self.migrated) { store, _ in
            let items = try store.read { try $0.items(forRequest: DataStoreRequest(itemType: "ev")) }
            for literal: Value in [Self.date(631_152_000), Self.date(631_152_000.1), Self.date(0), Self.date(.nan), "n/a", 5,
                                   "2021-01-01 00:00:00", Self.date(1e12)] {
                for attribute in ["at", "day"] {
                    for predicate: DataStorePredicate in [
                        .attribute(attribute) == literal, .attribute(attribute) < literal, .attribute(attribute) >= literal,
                        .attribute(attribute) > literal,
                    ] {
                        var request = DataStoreRequest(itemType: "ev")
                        request.filter = predicate
                        let found = try store.read { try $0.items(forRequest: request) }.map(\.id)
                        #expect(found == request.apply(to: items).map(\.id), "\(predicate)")
                    }
                }
            }
            for ascending in [true, false] {
                for key in ["at", "day"] {
                    var request = DataStoreRequest(itemType: "ev")
                    request.sortDescriptors = [DataStoreSortDescriptor(key: key, ascending: ascending)]
                    #expect(try store.read { try $0.items(forRequest: request) }.map(\.id) == request.apply(to: items).map(\.id))
                }
            }
        }
    }
}
