import Dispatch
import Persist
import PersistSQLite
import PersistTestSupport
import Testing

/// Read blocks whose first read is a lookup by identifier: the lookup opens the block's
/// transaction and the schema is checked by SQLite's data version (see the SQLiteStore article).
/// Each test reads once first, so that the pooled reader connection has checked the schema before.
@Suite("SQLite read blocks that start with a lookup by identifier")
struct LookupFirstReadTests {
    private struct Row: DataStoreEntity, Equatable {
        static let itemType = "t"
        var id: Int
        var a: String?
        var b: String?
    }

    /// Commits `body` in a write block on another thread and waits for it.
    private func commitMeanwhile(_ store: SQLiteDataStore, _ body: @escaping @Sendable (DataStoreReadWriteAccessor) throws -> Void) {
        let committed = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? store.writeSync(body)
            committed.signal()
        }
        committed.wait()
    }

    /// A store holding the note "first", read once.
    private func withNoteStore(_ body: (SQLiteDataStore) throws -> Void) throws {
        try withFileStore { store, _ throws in
            try store.writeSync { try $0.insert(Item(itemType: "Note", id: "first")) }
            _ = try store.read { try $0.item(ofType: "Note", id: "first") }
            try body(store)
        }
    }

    @Test("a block whose first lookup finds its item keeps that snapshot while later write blocks commit")
    func foundLookupHoldsSnapshot() throws {
        try withNoteStore { store in
            let seen = try store.read { accessor in
                let first = try accessor.item(ofType: "Note", id: "first")
                commitMeanwhile(store) { accessor in
                    try accessor.insert(Item(itemType: "Note", id: "second", attributes: ["text": "new column"]))
                    try accessor.insert(Item(itemType: "Other", id: 1))
                }
                return (first, try accessor.countItems(forRequest: DataStoreRequest(itemType: "Note")),
                        try accessor.item(ofType: "Note", id: "second"), try accessor.itemTypes())
            }
            #expect(seen.0 == Item(itemType: "Note", id: "first"))
            #expect(seen.1 == 1)
            #expect(seen.2 == nil)
            #expect(seen.3 == ["Note"])
            #expect(try store.read { try $0.itemTypes() } == ["Note", "Other"])
        }
    }

    @Test("a block whose first lookup finds nothing keeps the snapshot of that answer")
    func missingLookupHoldsSnapshot() throws {
        try withNoteStore { store in
            let seen = try store.read { accessor in
                let before = try accessor.item(ofType: "Note", id: "second")
                commitMeanwhile(store) { try $0.insert(Item(itemType: "Note", id: "second")) }
                return (before, try accessor.item(ofType: "Note", id: "second"),
                        try accessor.countItems(forRequest: DataStoreRequest(itemType: "Note")))
            }
            #expect(seen.0 == nil)
            #expect(seen.1 == nil)
            #expect(seen.2 == 1)
            #expect(try store.read { try $0.item(ofType: "Note", id: "second") } == Item(itemType: "Note", id: "second"))
        }
    }

    /// Options for a legacy file, in WAL mode or kept in its rollback-journal mode, where SQLite
    /// finds another connection's commit by the file's change counter instead of the WAL index.
    private static func legacyOptions(keepingJournalMode: Bool) -> SQLiteDataStore.Options {
        quietOptions { $0.keepsJournalMode = keepingJournalMode }
    }

    @Test("a first lookup reads the columns another connection added or dropped since the connection's last block",
          arguments: [false, true])
    func columnsChangedElsewhere(keepingJournalMode: Bool) throws {
        try withFileStore(creatingWith: "CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT); INSERT INTO t VALUES (1, 'a1');",
                          options: Self.legacyOptions(keepingJournalMode: keepingJournalMode)) { store, path in
            #expect(try store.read { try $0.item(ofType: "t", id: 1) }?.attributes == ["a": "a1"])
            let raw = try RawDatabase(path)
            defer { raw.close() }
            #expect(try raw.rows("PRAGMA journal_mode") == [[.text(keepingJournalMode ? "delete" : "wal")]])
            try raw.exec("ALTER TABLE t ADD COLUMN b TEXT; UPDATE t SET b = 'b1';")
            #expect(try store.read { try $0.item(ofType: "t", id: 1) }?.attributes == ["a": "a1", "b": "b1"])
            try raw.exec("ALTER TABLE t DROP COLUMN a")
            #expect(try store.read { try $0.getById(Row.self, id: 1) } == Row(id: 1, a: nil, b: "b1"))
            #expect(try store.read { try $0.item(ofType: "t", id: 1) }?.attributes == ["b": "b1"])
        }
    }

    @Test("a first lookup finds a table another connection created since the connection's last block",
          arguments: [false, true])
    func tableCreatedElsewhere(keepingJournalMode: Bool) throws {
        try withFileStore(creatingWith: "CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT); INSERT INTO t VALUES (1, 'a1');",
                          options: Self.legacyOptions(keepingJournalMode: keepingJournalMode)) { store, path in
            #expect(try store.read { try $0.item(ofType: "t", id: 1) } != nil)
            let raw = try RawDatabase(path)
            defer { raw.close() }
            try raw.exec("CREATE TABLE u (id INTEGER PRIMARY KEY, c TEXT); INSERT INTO u VALUES (7, 'c7');")
            #expect(try store.read { try $0.item(ofType: "u", id: 7) }?.attributes == ["c": "c7"])
            try raw.exec("CREATE TABLE v (id INTEGER PRIMARY KEY, d TEXT); CREATE INDEX v_d ON v (d);")
            #expect(try store.read { try $0.indexes(ofType: "v") }.map(\.name) == ["v_d"])
        }
    }

    @Test("a block that caught a failure to load a changed schema fails the same way on its next read, never reading with the old schema")
    func failedSchemaLoadIsNotForgotten() throws {
        try withNoteStore { store in
            // An attribute, so that the store records its column's kind; then a read, which checks.
            try store.writeSync { try $0.save(Item(itemType: "Note", id: "first", attributes: ["text": "t"])) }
            _ = try store.read { try $0.item(ofType: "Note", id: "first") }
            let raw = try RawDatabase(store.path)
            defer { raw.close() }
            // A kind this version does not know makes loading the new schema fail.
            try raw.exec("""
                INSERT INTO persist_columns (table_name, column_name, kind) VALUES ('Note', 'x', 'hologram');
                CREATE TABLE other (id INTEGER PRIMARY KEY);
                """)
            /// The code a read fails with, `nil` when it succeeds.
            func failure(_ read: () throws -> Void) -> DataStoreError.Code? {
                do {
                    try read()
                    return nil
                } catch {
                    return (error as? DataStoreError)?.code
                }
            }
            let codes = try store.read { accessor in
                [failure { _ = try accessor.item(ofType: "Note", id: "first") },
                 failure { _ = try accessor.countItems(forRequest: DataStoreRequest(itemType: "Note")) }]
            }
            #expect(codes == [.unsupported, .unsupported])
        }
    }

    @Test("a first lookup after another connection changed rows, not columns, reads the new rows, and the block's later reads its snapshot")
    func rowsChangedElsewhere() throws {
        try withFileStore(creatingWith: "CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT); INSERT INTO t VALUES (1, 'a1');") { store, path in
            #expect(try store.read { try $0.item(ofType: "t", id: 1) }?["a"] == "a1")
            let raw = try RawDatabase(path)
            defer { raw.close() }
            try raw.exec("UPDATE t SET a = 'a2' WHERE id = 1; INSERT INTO t VALUES (2, 'b2');")
            let seen = try store.read { accessor in
                let first = try accessor.item(ofType: "t", id: 1)?["a"]
                try raw.exec("INSERT INTO t VALUES (3, 'c3')")
                return (first, try accessor.countItems(forRequest: DataStoreRequest(itemType: "t")))
            }
            #expect(seen.0 == "a2")
            #expect(seen.1 == 2)
        }
    }
}
