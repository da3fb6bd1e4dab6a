import Foundation
import Persist
import PersistTestSupport
import Testing

/// The hints persist-migrate prints under a PostgreSQL failure speak of roles and privileges, not
/// of files and folders, and of the copy as a whole when no item failed.
@Suite("persist-migrate's hints for PostgreSQL failures", .serialized)
struct PostgresHintTests {
    @Test("a source schema the role may not read exits 66 with a hint about its privileges")
    func unreadableSource() throws {
        guard let port = PostgresScratch.port else { throw PostgresScratch.noServer }
        let scratch = try PostgresScratch()
        defer { scratch.drop() }
        _ = try scratch.sql("CREATE SCHEMA \(scratch.schema); CREATE TABLE \(scratch.schema).t (id integer PRIMARY KEY)")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = "postgresql://persist_pw:\(PostgresExitTests.password)@127.0.0.1:\(port)/persist?schema=\(scratch.schema)"
        let output = try Tool.run([url, "copy.sqlite", "--progress", "never"], in: directory.url)
        #expect(output.status == 66, "\(output.stderr)")
        #expect(output.stderr.contains("grant it USAGE on the schema"), "\(output.stderr)")
        #expect(!output.stderr.contains("GDBM file"), "\(output.stderr)")
    }

    @Test("a target schema the role may not create tables in exits 73 with a hint about CREATE, not about folders")
    func uncreatableTarget() throws {
        guard let port = PostgresScratch.port else { throw PostgresScratch.noServer }
        let scratch = try PostgresScratch()
        defer { scratch.drop() }
        _ = try scratch.sql("CREATE SCHEMA \(scratch.schema); GRANT USAGE ON SCHEMA \(scratch.schema) TO persist_pw")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try StoreFiles.gdbm(directory.path("old.db"), holding: StoreFiles.items(count: 3))
        let url = "postgresql://persist_pw:\(PostgresExitTests.password)@127.0.0.1:\(port)/persist?schema=\(scratch.schema)"
        let output = try Tool.run(["old.db", url, "--progress", "never"], in: directory.url)
        #expect(output.status == 73, "\(output.stderr)")
        #expect(output.stderr.contains("grant it CREATE on the database"), "\(output.stderr)")
        #expect(!output.stderr.contains("folder"), "\(output.stderr)")
    }

    @Test("a deferred constraint the copy breaks at commit exits 65; the hint names no item, and nothing is written")
    func refusedAtCommit() throws {
        let scratch = try PostgresScratch()
        defer { scratch.drop() }
        _ = try scratch.sql("""
            CREATE SCHEMA \(scratch.schema);
            CREATE TABLE \(scratch.schema).t (id integer PRIMARY KEY, email text UNIQUE DEFERRABLE INITIALLY DEFERRED);
            """)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let raw = try RawDatabase(directory.path("old.sqlite"))
        try raw.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, email TEXT); INSERT INTO t VALUES (1, 'a'), (2, 'a');")
        raw.close()
        let output = try Tool.run(["old.sqlite", scratch.url, "--progress", "never"], in: directory.url)
        #expect(output.status == 65, "\(output.stderr)")
        #expect(output.stderr.contains("refused the copy as a whole"), "\(output.stderr)")
        #expect(!output.stderr.contains("the item named above"), "\(output.stderr)")
        #expect(!output.stderr.contains("no transaction in progress"), "\(output.stderr)")
        #expect(try scratch.sql("SELECT count(*) FROM \(scratch.schema).t") == "0")
    }
}
