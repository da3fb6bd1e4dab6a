import Persist
import PersistConformance
import PersistPostgres
import Testing

@Suite("A bulk load streams rows through one open COPY, ended before anything else runs")
struct BulkCopyTests {
    private static let names = AttributeNames(sorted: ["name", "rating"])

    private func rows(_ ids: ClosedRange<Int64>, type: String = "Restaurant") -> ArraySlice<ItemRow> {
        ArraySlice(ids.map { ItemRow(itemType: type, id: .int($0), names: Self.names,
                                     values: [.string("restaurant \($0)"), .int($0 % 5)]) })
    }

    /// Runs `body` in a bulk-load write block of `store`.
    private func bulk<T>(_ store: PostgresDataStore,
                         _ body: (DataStoreReadWriteAccessor, any BulkLoadWriter) throws -> T) throws -> T {
        try store.scheduler.bulkWriteSync { accessor, writer in
            guard let writer else { throw DataStoreError(.unsupported, "the PostgreSQL writer has no bulk path") }
            return try body(accessor, writer)
        }
    }

    /// A store whose `Restaurant` and `Menu` tables exist (created by Persist, so rows are copied).
    private func withTables(_ body: (PostgresDataStore) throws -> Void) throws {
        try withPostgresStore { store, _ in
            try store.writeSync { accessor in
                for type in ["Restaurant", "Menu"] {
                    try accessor.insert(Item(itemType: type, id: .int(0), attributes: ["name": "seed", "rating": 1]))
                    _ = try accessor.deleteItem(ofType: type, id: .int(0))
                }
            }
            try body(store)
        }
    }

    @Test("rows of several calls and two tables arrive whole, and a write and a read in the same block see them")
    func streamedAcrossCalls() throws {
        try withTables { store in
            let seen = try bulk(store) { accessor, writer -> Int in
                try writer.bulkInsert(rows(1...700))
                try writer.bulkInsert(rows(1...300, type: "Menu"))
                try writer.bulkInsert(rows(701...1500))
                // A value of another kind: the COPY ends, the column widens, and copying goes on.
                try writer.bulkInsert([ItemRow(itemType: "Restaurant", id: .int(1501), names: Self.names,
                                               values: [.string("mixed"), .string("five")])] + rows(1502...1600))
                try accessor.insert(Item(itemType: "Restaurant", id: .int(1601), attributes: ["name": "last"]))
                try writer.finishBulkLoad()
                return try accessor.countItems(forRequest: DataStoreRequest(itemType: "Restaurant"))
            }
            #expect(seen == 1601)
            try store.read { (accessor: DataStoreReadAccessor) throws in
                #expect(try accessor.countItems(forRequest: DataStoreRequest(itemType: "Restaurant")) == 1601)
                #expect(try accessor.countItems(forRequest: DataStoreRequest(itemType: "Menu")) == 300)
                #expect(try accessor.item(ofType: "Restaurant", id: .int(1234))?.attributes
                    == ["name": "restaurant 1234", "rating": 4])
                #expect(try accessor.item(ofType: "Restaurant", id: .int(1501))?.attributes
                    == ["name": "mixed", "rating": "five"])
                #expect(try accessor.item(ofType: "Restaurant", id: .int(1600))?.attributes
                    == ["name": "restaurant 1600", "rating": 0])
            }
        }
    }

    @Test("a key a streamed COPY already sent fails the block with alreadyExists, and nothing is stored")
    func duplicateKeyFailsTheBlock() throws {
        try withTables { store in
            expectError(.alreadyExists) {
                try bulk(store) { _, writer in
                    try writer.bulkInsert(rows(1...500))
                    try writer.bulkInsert(rows(400...600))
                }
            }
            #expect(try store.read { try $0.countItems(forRequest: DataStoreRequest(itemType: "Restaurant")) } == 0)
            try store.writeSync { try $0.insert(Item(itemType: "Restaurant", id: .int(1), attributes: ["name": "after"])) }
            #expect(try store.read { try $0.countItems(forRequest: DataStoreRequest(itemType: "Restaurant")) } == 1)
        }
    }

    @Test("a block that throws after streaming rows stores none of them, and the next block works")
    func rolledBack() throws {
        struct Stop: Error {}
        try withTables { store in
            #expect(throws: Stop.self) {
                try bulk(store) { _, writer in
                    try writer.bulkInsert(rows(1...800))
                    throw Stop()
                }
            }
            #expect(try store.read { try $0.countItems(forRequest: DataStoreRequest(itemType: "Restaurant")) } == 0)
            try bulk(store) { _, writer in try writer.bulkInsert(rows(1...10)) }
            #expect(try store.read { try $0.countItems(forRequest: DataStoreRequest(itemType: "Restaurant")) } == 10)
        }
    }
}
