import Persist
import PersistConformance
import PersistPostgres
import Testing

@Suite("The named-statement cache prepares once, evicts the least recently used, and survives rollbacks")
struct PreparedStatementTests {
    /// The named statements the server holds for this session.
    private func serverCount(_ connection: PGConnection) throws -> Int64? {
        try connection.execute("SELECT count(*) FROM pg_prepared_statements WHERE name LIKE 'persist\\_%'").int64(0, 0)
    }

    @Test("the same SQL and types reuse one statement; other types get their own")
    func reuse() throws {
        let connection = try TestServer.connect()
        defer { connection.close() }
        for value in 0..<20 {
            #expect(try connection.executePrepared("SELECT $1::int8 * 2", [.int8(Int64(value))]).int64(0, 0) == Int64(value) * 2)
        }
        #expect(connection.preparedStatementCount == 1)
        #expect(try serverCount(connection) == 1)
        #expect(try connection.executePrepared("SELECT $1::int8 * 2", [.null]).int64(0, 0) == nil)
        #expect(connection.preparedStatementCount == 2)
    }

    @Test("a full cache evicts the least recently used and deallocates it when idle, not inside a transaction")
    func eviction() throws {
        let connection = try TestServer.connect(options: TestServer.quietOptions(statementCacheCapacity: 2))
        defer { connection.close() }
        try connection.executePrepared("SELECT 1")
        try connection.executePrepared("SELECT 2")
        try connection.executePrepared("SELECT 1")
        try connection.executeScript("BEGIN")
        try connection.executePrepared("SELECT 3")  // evicts SELECT 2, which waits: we are in a transaction
        #expect(connection.preparedStatementCount == 2)
        #expect(try serverCount(connection) == 3)
        try connection.executeScript("COMMIT")
        try connection.executePrepared("SELECT 4")  // idle: SELECT 2 and now SELECT 1 go
        #expect(try serverCount(connection) == 2)
        #expect(try connection.executePrepared("SELECT 2").int64(0, 0) == 2)
    }

    @Test("a statement prepared in a transaction that rolls back is still there")
    func survivesRollback() throws {
        let connection = try TestServer.connect()
        defer { connection.close() }
        try connection.executeScript("BEGIN")
        try connection.executePrepared("SELECT $1::text", [.text("a")])
        try connection.executeScript("ROLLBACK")
        #expect(try connection.executePrepared("SELECT $1::text", [.text("b")]).text(0, 0) == "b")
        #expect(try serverCount(connection) == 1)
    }

    @Test("a plan gone stale after a schema change fails once, then is prepared again")
    func stalePlan() throws {
        try withTestSchema { connection, _ in
            try connection.executeScript("CREATE TABLE t (a int8); INSERT INTO t VALUES (1)")
            #expect(try connection.executePrepared("SELECT * FROM t").columnCount == 1)
            try connection.executeScript("ALTER TABLE t ADD COLUMN b int8")
            let error = expectError(.unsupported) { try connection.executePrepared("SELECT * FROM t") }
            #expect(error?.engineMessage?.hasPrefix("0A000") == true)
            #expect(try connection.executePrepared("SELECT * FROM t").columnCount == 2)
        }
    }

    @Test("a preparation the server skipped after an earlier failure in the pipeline is prepared again on next use")
    func skippedPreparation() throws {
        let connection = try TestServer.connect()
        defer { connection.close() }
        try connection.enterPipelineMode()
        let failing = PGCommand("SELECT 1 / 0", operation: "Dividing by zero")
        let skipped = PGCommand("SELECT $1::int8 + 40", [.int8(2)], prepared: true, operation: "Adding")
        #expect(throws: DataStoreError.self) { try connection.runPipeline([failing, skipped], synchronize: true) }
        #expect(connection.preparedStatementCount == 0)
        let count = PGCommand("SELECT count(*) FROM pg_prepared_statements WHERE name LIKE 'persist\\_%'",
                              operation: "Counting statements")
        let results = try connection.runPipeline([skipped, count], synchronize: true)
        #expect(try results.first?.int64(0, 0) == 42)
        #expect(try results.last?.int64(0, 0) == 1)
        #expect(connection.preparedStatementCount == 1)
    }

    @Test("a pipeline with a command of too many parameters sends none of its commands")
    func refusedPipelineSendsNothing() throws {
        let connection = try TestServer.connect()
        defer { connection.close() }
        try connection.executeScript("CREATE TEMPORARY TABLE hits (n int8)")
        try connection.enterPipelineMode()
        let first = PGCommand("SELECT 1", operation: "Selecting one")
        let tooMany = PGCommand("SELECT 2", Array(repeating: .null, count: 65_536), operation: "Selecting two")
        expectError(.invalidArgument) { try connection.runPipeline([first, tooMany], synchronize: true) }
        // The next call gets its own results, and runs its statement once.
        let insert = PGCommand("INSERT INTO hits VALUES (3) RETURNING n", operation: "Inserting")
        let results = try connection.runPipeline([insert], synchronize: true)
        #expect(results.count == 1)
        #expect(try results.first?.int64(0, 0) == 3)
        let count = PGCommand("SELECT count(*) FROM hits", operation: "Counting")
        #expect(try connection.runPipeline([count], synchronize: true).first?.int64(0, 0) == 1)
    }

    @Test("SQL with a NUL character or too many parameters is refused before it is sent")
    func refusedStatements() throws {
        let connection = try TestServer.connect()
        defer { connection.close() }
        expectError(.invalidArgument) { try connection.execute("SELECT 1\u{0}; DROP TABLE x") }
        expectError(.invalidArgument) { try connection.executePrepared("SELECT 1", Array(repeating: .null, count: 65_536)) }
        #expect(try connection.execute("SELECT 1").rowCount == 1)
    }
}
