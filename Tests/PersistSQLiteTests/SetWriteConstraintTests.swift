import Persist
import PersistConformance
import PersistSQLite
import PersistTestSupport
import Testing

@Suite("SQLite updateItems refused by a CHECK or NOT NULL constraint names the item")
struct SQLiteSetWriteConstraintTests {
    static let table = """
        CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER NOT NULL, lim INTEGER, CHECK (v <= lim));
        INSERT INTO t VALUES (1, 1, 100), (2, 2, 5), (3, 3, 100);
        """

    @Test("a CHECK only the second selected row breaks names that item, nothing is updated, and the block goes on")
    func checkOnOneRow() throws {
        try withFileStore(creatingWith: Self.table) { store, _ in
            try store.writeSync { accessor in
                let error = #expect(throws: DataStoreError.self) {
                    try accessor.updateItems(forRequest: DataStoreRequest(itemType: "t"), setting: ["v": 50])
                }
                #expect(error?.code == .invalidArgument)
                #expect(error?.items == [ItemReference(itemType: "t", id: 2)], "\(String(describing: error))")
                #expect(error?.message.contains("t/2") == true, "\(String(describing: error))")
                try accessor.save(Item(itemType: "t", id: 4, attributes: ["v": 4, "lim": 10]))
            }
            #expect(try store.read { accessor in
                try accessor.items(forRequest: DataStoreRequest(itemType: "t")).map { $0["v"] }
            } == [1, 2, 3, 4])
        }
    }

    @Test("a NOT NULL column set to null names the first selected item in the request's order")
    func notNullInRequestOrder() throws {
        try withFileStore(creatingWith: Self.table) { store, _ throws in
            var request = DataStoreRequest(itemType: "t")
            request.setSort(byKey: "v", ascending: false)
            request.limit = 2
            let error = #expect(throws: DataStoreError.self) {
                try store.writeSync { accessor in _ = try accessor.updateItems(forRequest: request, setting: ["v": .null]) }
            }
            #expect(error?.items == [ItemReference(itemType: "t", id: 3)], "\(String(describing: error))")
            #expect(try store.read { accessor in
                try accessor.items(forRequest: DataStoreRequest(itemType: "t")).map { $0["v"] }
            } == [1, 2, 3])
        }
    }
}
