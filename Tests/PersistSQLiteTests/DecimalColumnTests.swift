import Foundation
import Persist
import PersistSQLite
import PersistTestSupport
import Testing

@Suite("Decimals are stored in NUMERIC columns legacy readers read, and compare exactly")
struct DecimalColumnTests {
    static func decimal(_ text: String) -> Value {
        guard let decimal = DecimalText.parse(text) else { return .null }
        return .decimal(decimal)
    }

    static let texts = [
        "12345678901234567890123456789012345678", "-12345678901234567.89", "NaN", "1.50", "0.001", "42", "-0.5",
        "1e30", "0", "123456789012345", "0.1", "-98765432109876543210.5",
    ]

    func note(_ id: Int64, _ value: Value) -> Item {
        Item(itemType: "Note", id: .int(id), attributes: ["v": value])
    }

    var notes: [Item] { Self.texts.enumerated().map { note(Int64($0.offset + 1), Self.decimal($0.element)) } }

    @Test("decimals round-trip exactly, through a reopen: 38 digits, NaN, negatives, 1.50")
    func roundTrip() throws {
        #expect(!notes.contains { $0.attributes["v"] == .null })
        try withFileStore { store, path in
            try store.writeSync { accessor in for item in notes { try accessor.insert(item) } }
            #expect(try store.read { try $0.items(forRequest: DataStoreRequest(itemType: "Note")) } == notes)
            let reopened = SQLiteDataStore(path: path, options: quietOptions())
            try reopened.setup()
            defer { try? reopened.tearDown() }
            #expect(try reopened.read { try $0.items(forRequest: DataStoreRequest(itemType: "Note")) } == notes)
        }
    }

    @Test("the column is declared NUMERIC, recorded as decimal, and sqlite3 reads the exact digits")
    func legacyReadable() throws {
        try withFileStore { store, path in
            try store.writeSync { accessor in for item in notes { try accessor.insert(item) } }
            let raw = try RawDatabase(path)
            defer { raw.close() }
            #expect(try raw.rows(#"SELECT type FROM pragma_table_info('Note') WHERE name = 'v'"#) == [[.text("NUMERIC")]])
            #expect(try raw.rows(#"SELECT kind FROM "persist_columns" WHERE table_name = 'Note' AND column_name = 'v'"#)
                == [[.text("decimal")]])
            // What a legacy app reading the column as text (and the sqlite3 shell) sees.
            let shown = try raw.rows(#"SELECT typeof(v), CAST(v AS TEXT) FROM "Note" ORDER BY "persist_id""#)
            #expect(shown == [
                [.text("blob"), .text("12345678901234567890123456789012345678")],
                [.text("blob"), .text("-12345678901234567.89")], [.text("text"), .text("NaN")],
                [.text("real"), .text("1.5")], [.text("real"), .text("0.001")], [.text("integer"), .text("42")],
                [.text("real"), .text("-0.5")], [.text("real"), .text("1.0e+30")], [.text("integer"), .text("0")],
                [.text("integer"), .text("123456789012345")], [.text("real"), .text("0.1")],
                [.text("blob"), .text("-98765432109876543210.5")],
            ])
            // A legacy app reading numbers gets them.
            #expect(try raw.rows(#"SELECT v + 0 FROM "Note" WHERE "persist_id" = 4"#) == [[.real(1.5)]])
        }
    }

    @Test("the sqlite3 shell prints the digits")
    func shellPrints() throws {
        try withFileStore { store, path in
            try store.writeSync { accessor in for item in notes { try accessor.insert(item) } }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["sqlite3", path, #"SELECT v FROM "Note" ORDER BY "persist_id""#]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "the sqlite3 shell is needed to check what it prints")
            #expect(output.split(separator: "\n") == [
                "12345678901234567890123456789012345678", "-12345678901234567.89", "NaN", "1.5", "0.001", "42", "-0.5",
                "1.0e+30", "0", "123456789012345", "0.1", "-98765432109876543210.5",
            ])
        }
    }

    /// Filters and sorts of `request`-shaped questions on the store, against the shared semantics in memory.
    private func expectSameAsSemantics(_ store: SQLiteDataStore, _ items: [Item], literals: [Value]) throws {
        for ascending in [true, false] {
            var request = DataStoreRequest(itemType: "Note")
            request.sortDescriptors = [DataStoreSortDescriptor(key: "v", ascending: ascending)]
            let sorted = try store.read { try $0.items(forRequest: request) }
            #expect(sorted.map(\.id) == request.apply(to: items).map(\.id), "sorted ascending: \(ascending)")
        }
        for literal in literals {
            let predicates: [(String, DataStorePredicate)] = [
                ("==", .attribute("v") == literal), ("<", .attribute("v") < literal), ("<=", .attribute("v") <= literal),
                (">", .attribute("v") > literal), (">=", .attribute("v") >= literal), ("!=", .attribute("v") != literal),
                ("in", .attribute("v").isIn([literal, 7])),
            ]
            for (name, predicate) in predicates {
                var request = DataStoreRequest(itemType: "Note")
                request.filter = predicate
                let found = try store.read { try $0.items(forRequest: request) }.map(\.id)
                #expect(found == request.apply(to: items).map(\.id), "v \(name) \(literal)")
            }
        }
    }

    static let literals: [Value] = [
        decimal("1.5"), decimal("0.1"), 0.1, 1.5, 42, 42.0, decimal("12345678901234567890123456789012345678"),
        decimal("-12345678901234567.89"), -12345678901234567.0, .double(.nan), decimal("NaN"), 0, decimal("1e30"),
        1e30, "42",
    ]

    @Test("a decimal column compares and sorts exactly with decimals, integers and doubles")
    func typedColumn() throws {
        try withFileStore { store, _ in
            try store.writeSync { accessor in for item in notes { try accessor.insert(item) } }
            try expectSameAsSemantics(store, notes, literals: Self.literals)
        }
    }

    @Test("a number column compares with decimals exactly")
    func numberColumn() throws {
        let numbers: [Value] = [1, 1.5, 0.1, 42, -12345678901234567, .double(.nan), 1e30, -0.5, 7]
        let items = numbers.enumerated().map { note(Int64($0.offset + 1), $0.element) }
        try withFileStore { store, _ in
            try store.writeSync { accessor in for item in items { try accessor.insert(item) } }
            try expectSameAsSemantics(store, items, literals: Self.literals)
        }
    }

    /// In a mixed column a double sorts by its exact value (as it compares with integers), so a
    /// decimal equal to its shortest text (0.1) but not its exact value is not tied with it.
    @Test("in a mixed column decimals sort among the numbers, not after objects")
    func mixedColumn() throws {
        let values: [Value] = [
            1, 1.5, "text", Self.decimal("1.25"), .bytes([1]), Self.decimal("12345678901234567890.5"), ["k": 1], [1],
            .double(.nan), Self.decimal("NaN"), true, .date(Date(timeIntervalSinceReferenceDate: 5)), -3,
            Self.decimal("-3"), 0.5, Self.decimal("0.5"), Self.decimal("-12345678901234567.89"), 9_223_372_036_854_775_807,
            9.223372036854775807e18, Self.decimal("9223372036854775807.5"),
        ]
        let items = values.enumerated().map { note(Int64($0.offset + 1), $0.element) }
        try withFileStore { store, path in
            try store.writeSync { accessor in for item in items { try accessor.insert(item) } }
            #expect(try store.read { try $0.items(forRequest: DataStoreRequest(itemType: "Note")) } == items)
            try expectSameAsSemantics(store, items, literals: Self.literals)
            let raw = try RawDatabase(path)
            defer { raw.close() }
            // The column was made again without NUMERIC, which would turn the text "1" into a number.
            #expect(try raw.rows(#"SELECT type FROM pragma_table_info('Note') WHERE name = 'v'"#) == [[.text("")]])
        }
    }

    @Test("a decimal column meeting a string widens and keeps every value, its index too")
    func widensWithIndex() throws {
        try withFileStore { store, _ in
            try store.writeSync { accessor in
                try accessor.insert(note(1, Self.decimal("12345678901234567890.5")))
                try accessor.insert(note(2, Self.decimal("1.5")))
                try accessor.ensureIndex(ofType: "Note", on: ["v"], unique: false)
            }
            try store.writeSync { accessor in try accessor.insert(note(3, "12")) }
            let items = [note(1, Self.decimal("12345678901234567890.5")), note(2, Self.decimal("1.5")), note(3, "12")]
            #expect(try store.read { try $0.items(forRequest: DataStoreRequest(itemType: "Note")) } == items)
            var request = DataStoreRequest(itemType: "Note")
            request.filter = .attribute("v") == Self.decimal("1.50")
            #expect(try store.read { try $0.items(forRequest: request) }.map(\.id) == [2])
        }
    }
}
