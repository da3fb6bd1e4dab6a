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

/// A target table another session keeps locked.
@Suite("persist-migrate's hint for a locked PostgreSQL target", .serialized)
struct PostgresLockedTargetTests {
    @Test("a target table another session keeps locked exits 75 saying another session holds the lock, and the target is left as it was")
    func lockedTarget() throws {
        let scratch = try PostgresScratch()
        defer { scratch.drop() }
        try scratch.seed([Item(itemType: "Restaurant", id: 1000, attributes: ["name": "kept"])])
        // A legacy session holds the table for longer than the store's lock timeout (10 s).
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        holder.arguments = ["-X", "-q", "-d", scratch.base, "-c",
                            "BEGIN; LOCK TABLE \"\(scratch.schema)\".\"Restaurant\" IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(60); COMMIT"]
        holder.standardOutput = FileHandle.nullDevice
        try holder.run()
        // Ends the other session on the server (psql waits out its statement otherwise), then psql.
        func release() {
            _ = try? scratch.sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(60)%' "
                + "AND pid <> pg_backend_pid()")
            holder.waitUntilExit()
        }
        defer { if holder.isRunning { release() } }
        let deadline = Date().addingTimeInterval(30)
        while try scratch.sql("SELECT count(*) FROM pg_locks WHERE mode = 'AccessExclusiveLock' AND granted "
            + "AND relation = '\"\(scratch.schema)\".\"Restaurant\"'::regclass") != "1" {
            try #require(Date() < deadline, "the other session did not take its lock within 30 seconds")
            Thread.sleep(forTimeInterval: 0.05)
        }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try StoreFiles.gdbm(directory.path("old.db"), holding: StoreFiles.items(count: 3))
        let output = try Tool.run(["old.db", scratch.url, "--if-exists", "replace", "--progress", "never"], in: directory.url)
        #expect(output.status == 75, "\(output.stderr)")
        #expect(output.stderr.contains("another session holds a lock the copy waited for"), "\(output.stderr)")
        #expect(output.stderr.contains("was left as it was"), "\(output.stderr)")
        release()
        #expect(try scratch.contents() == [Item(itemType: "Restaurant", id: 1000, attributes: ["name": "kept"])])
    }
}
