import Foundation
import Persist
import PersistTestSupport
import Testing

/// One schema of one database named by two URLs that differ in more than spelling.
@Suite("persist-migrate refuses one PostgreSQL schema reached by two URLs as source and target")
struct PostgresSameSchemaTests {
    /// The URL of `schema` on the test server, reached as `userInfo` at `host`.
    private func url(userInfo: String, host: String, schema: String) throws -> String {
        let port = try #require(PostgresScratch.port)
        return "postgresql://\(userInfo)@\(host):\(port)/persist?schema=\(schema)"
    }

    @Test("a host name and its address, or another role, exit 64 with --if-exists replace, and the schema is unchanged",
          arguments: ["localhost", "password role"])
    func sameSchemaTwoURLs(spelling: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        try pg.seed(StoreFiles.items(count: 20))
        let before = try pg.contents()
        // The other role can open the schema (and read it), as a role given a copy's target can.
        try pg.sql("GRANT USAGE ON SCHEMA \"\(pg.schema)\" TO persist_pw; "
                   + "GRANT SELECT ON ALL TABLES IN SCHEMA \"\(pg.schema)\" TO persist_pw")
        let target = spelling == "localhost"
            ? try url(userInfo: "postgres", host: "localhost", schema: pg.schema)
            : try url(userInfo: "persist_pw:\(PostgresExitTests.password)", host: "127.0.0.1", schema: pg.schema)
        let output = try Tool.run([pg.url, target, "--if-exists", "replace", "--progress", "never", "--json"],
                                  in: directory.url)
        #expect(output.status == 64, "\(output.stderr)")
        #expect(output.stderr.contains("are the same PostgreSQL schema, \"\(pg.schema)\" of one database, reached by two URLs"),
                "\(output.stderr)")
        #expect(output.stdout.contains("\"code\":\"sameStore\""), "\(output.stdout)")
        #expect(!(output.stdout + output.stderr).contains(PostgresExitTests.password))
        #expect(try pg.contents() == before)
    }

    @Test("another schema of the same database, reached by another host name, is copied to")
    func otherSchemaSameDatabase() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        let other = try PostgresScratch()
        defer { other.drop() }
        try pg.seed(StoreFiles.items(count: 20))
        let target = try url(userInfo: "postgres", host: "localhost", schema: other.schema)
        let output = try Tool.run([pg.url, target, "--progress", "never"], in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try other.contents() == pg.contents())
    }
}
