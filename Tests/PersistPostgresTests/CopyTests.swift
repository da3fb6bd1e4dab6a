import Persist
import PersistConformance
import PersistPostgres
import Testing

@Suite("COPY FROM STDIN in binary format stores many rows, and an aborted COPY stores none")
struct CopyTests {
    static let createTable = "CREATE TABLE t (id int8 PRIMARY KEY, b bool, f float8, s text, d bytea, ts timestamptz)"
    static let copy = "COPY t (id, b, f, s, d, ts) FROM STDIN (FORMAT binary)"

    private func row(_ index: Int64) -> [PGValue] {
        [.int8(index), index % 7 == 0 ? .null : .bool(index % 2 == 0), .float8(Double(index) / 3),
         .text(index % 5 == 0 ? "" : "row \(index) é"), .bytea([UInt8(truncatingIfNeeded: index), 0]),
         .timestamptz(index * 1_000_000)]
    }

    @Test("50,000 rows of every type arrive whole")
    func manyRows() throws {
        try withTestSchema { connection, _ in
            try connection.executeScript(Self.createTable)
            let count = 50_000
            let stored = try connection.copyIn(Self.copy, rows: (1...Int64(count)).lazy.map(row))
            #expect(stored == count)
            let summary = try connection.execute("SELECT count(*), sum(id)::int8, count(b), sum(length(d))::int8 FROM t")
            #expect(try summary.int64(0, 0) == Int64(count))
            #expect(try summary.int64(0, 1) == Int64(count * (count + 1) / 2))
            #expect(try summary.int64(0, 2) == Int64(count - count / 7))
            #expect(try summary.int64(0, 3) == Int64(count * 2))
            let sample = try connection.execute("SELECT id, b, f, s, d, ts FROM t WHERE id = ANY($1::int8[])",
                                                [.text("{35,49999}")])
            for index in 0..<sample.rowCount {
                let id = try #require(try sample.int64(index, 0))
                #expect(try (0..<6).map { try sample.value(index, $0) } == row(id))
            }
            #expect(connection.transactionStatus == .idle)
        }
    }

    @Test("no rows is a valid COPY")
    func noRows() throws {
        try withTestSchema { connection, _ in
            try connection.executeScript(Self.createTable)
            #expect(try connection.copyIn(Self.copy, rows: [[PGValue]]()) == 0)
        }
    }

    @Test("data of the wrong type, a duplicate key, or an unencodable row abort the COPY; nothing is stored")
    func abortedCopies() throws {
        try withTestSchema { connection, _ in
            try connection.executeScript(Self.createTable + "; CREATE TABLE narrow (n int4)")
            // An int8 sent for an int4 column: binary COPY does not convert.
            expectError(.typeMismatch) {
                try connection.copyIn("COPY narrow (n) FROM STDIN (FORMAT binary)", rows: [[.int8(1)]])
            }
            expectError(.alreadyExists) { try connection.copyIn(Self.copy, rows: [row(1), row(2), row(1)]) }
            var tooWide = row(3)
            tooWide += Array(repeating: .null, count: 40_000)
            expectError(.invalidArgument) { try connection.copyIn(Self.copy, rows: [row(4), tooWide]) }
            #expect(try connection.execute("SELECT count(*) FROM t").int64(0, 0) == 0)
            #expect(connection.transactionStatus == .idle)
            #expect(try connection.copyIn(Self.copy, rows: [row(5)]) == 1)
        }
    }

    @Test("a statement that is not COPY FROM STDIN is a misuse")
    func notACopy() throws {
        try withTestSchema { connection, _ in
            expectError(.misuse) { try connection.copyIn("SELECT 1", rows: [[PGValue.int8(1)]]) }
            let after = try connection.execute("SELECT 2").int64(0, 0)
            #expect(after == 2)
        }
    }
}
