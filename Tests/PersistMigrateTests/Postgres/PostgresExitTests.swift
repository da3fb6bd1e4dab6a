import Foundation
import Persist
import PersistTestSupport
import Testing

/// The exit matrix's PostgreSQL rows, and that a password never appears in any output.
@Suite("persist-migrate's exits with PostgreSQL URLs", .serialized)
struct PostgresExitTests {
    /// The password of the cluster's password-protected role (scripts/postgres-cluster.sh).
    static let password = "persist-pw"

    private func run(_ arguments: [String]) throws -> (ProductRunner.Output, TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        try StoreFiles.gdbm(directory.path("old.db"), holding: StoreFiles.items(count: 5))
        return (try Tool.run(arguments + ["--progress", "never"], in: directory.url), directory)
    }

    @Test("an unknown URL scheme exits 64 naming the scheme, without echoing the URL's password")
    func unknownScheme() throws {
        let (output, directory) = try run(["old.db", "mysql://app:s3cret-word@localhost/app"])
        defer { directory.remove() }
        #expect(output.status == 64)
        #expect(output.stderr.contains("unknown scheme \"mysql\""))
        #expect(!output.stderr.contains("s3cret-word"))
    }

    @Test("a malformed URL given to --from or --to, or as the path of a file kind, exits 64 and never repeats it",
          arguments: [
              ["old.db", "--to", "mysql://app:s3cret-word@localhost/app"],
              ["old.db", "--to", "postgresql://app:s3cret-word@localhost:99999/app"],
              ["--from", "postgresql://app:s3cret-word@localhost:0/app", "new.sqlite"],
              ["--from", "gdbm", "--to", "sqlite", "old.db", "postgresql://app:s3cret-word@localhost/app"],
              ["old.db", "postgresql://app:987654321/app"],
          ])
    func malformedURLNotRepeated(arguments: [String]) throws {
        let (output, directory) = try run(arguments + ["--json"])
        defer { directory.remove() }
        #expect(output.status == 64, "\(output.stderr)")
        #expect(output.stderr.contains("URL") || output.stderr.contains("port"), "\(output.stderr)")
        let everything = output.stdout + output.stderr
        #expect(!everything.contains("s3cret-word") && !everything.contains("987654321"), "\(everything)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["old.db"])
    }

    @Test("a bad ?schema= exits 64 naming the part", arguments: ["", "a%00b", String(repeating: "s", count: 64)])
    func badSchema(schema: String) throws {
        let (output, directory) = try run(["old.db", "postgresql://app@localhost/app?schema=\(schema)"])
        defer { directory.remove() }
        #expect(output.status == 64, "\(output.stderr)")
        #expect(output.stderr.contains("schema"))
    }

    @Test("a source schema that does not exist exits 66 naming it, not as an empty store; nothing is created")
    func missingSourceSchema() throws {
        let pg = try PostgresScratch()
        defer { pg.drop() }
        let (output, directory) = try run([pg.url, "new.sqlite", "--json"])
        defer { directory.remove() }
        #expect(output.status == 66, "\(output.stderr)")
        #expect(output.stderr.contains("the source schema \"\(pg.schema)\" does not exist"), "\(output.stderr)")
        #expect(output.stderr.contains("?schema=NAME"), "\(output.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["old.db"])
    }

    @Test("an unreachable server exits 69 naming host and port; nothing is created")
    func unreachable() throws {
        let (output, directory) = try run(["old.db", "postgresql://app:s3cret-word@127.0.0.1:1/app", "--json"])
        defer { directory.remove() }
        #expect(output.status == 69, "\(output.stderr)")
        #expect(output.stderr.contains("127.0.0.1:1"))
        #expect(output.stdout.contains("\"exit_status\":69"))
        #expect(!(output.stdout + output.stderr).contains("s3cret-word"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["old.db"])
    }

    @Test("an unreachable source server exits 69 too")
    func unreachableSource() throws {
        let (output, directory) = try run(["postgresql://app@127.0.0.1:1/app", "new.sqlite"])
        defer { directory.remove() }
        #expect(output.status == 69, "\(output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("new.sqlite")))
    }

    @Test("a wrong password exits 77 and says authentication failed; the password is in no output")
    func authenticationFailure() throws {
        guard let port = PostgresScratch.port else { throw PostgresScratch.noServer }
        let url = "postgresql://persist_pw:wrong-secret-word@127.0.0.1:\(port)/persist"
        let (output, directory) = try run(["old.db", url, "--json", "--verbose"])
        defer { directory.remove() }
        #expect(output.status == 77, "\(output.stderr)")
        #expect(output.stderr.contains("Authentication failed"))
        #expect(output.stderr.contains("the password in the URL"), "\(output.stderr)")
        #expect(output.stdout.contains("\"exit_status\":77"))
        #expect(!(output.stdout + output.stderr).contains("wrong-secret-word"))
    }

    @Test("a wrong password from PGPASSWORD exits 77, and the hint looks beyond the URL, which has none")
    func authenticationFailureFromEnvironment() throws {
        guard let port = PostgresScratch.port else { throw PostgresScratch.noServer }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try StoreFiles.gdbm(directory.path("old.db"), holding: StoreFiles.items(count: 5))
        var environment = ProcessInfo.processInfo.environment
        environment["PGPASSWORD"] = "wrong-secret-word"
        let output = try ProductRunner.run("persist-migrate", ["old.db", "postgresql://persist_pw@127.0.0.1:\(port)/persist",
                                                               "--progress", "never"],
                                           in: directory.url, environment: environment)
        #expect(output.status == 77, "\(output.stderr)")
        #expect(output.stderr.contains("PGPASSWORD or ~/.pgpass"), "\(output.stderr)")
        #expect(!output.stderr.contains("the password in the URL"), "\(output.stderr)")
        #expect(!(output.stdout + output.stderr).contains("wrong-secret-word"))
    }

    @Test("a run with the right password succeeds and shows the password nowhere: summary, --json, --verbose logs")
    func passwordNeverShown() throws {
        guard let port = PostgresScratch.port else { throw PostgresScratch.noServer }
        let scratch = try PostgresScratch()
        defer { scratch.drop() }
        let url = "postgresql://persist_pw:\(Self.password)@127.0.0.1:\(port)/persist?schema=\(scratch.schema)"
        scratch.sqlCreateSchemaFor(role: "persist_pw")
        for arguments in [["old.db", url, "--verbose"], ["old.db", url, "--json", "--if-exists", "replace"],
                          [url, "back.sqlite", "--verbose", "--progress", "always"]] {
            let (output, directory) = try run(arguments)
            defer { directory.remove() }
            #expect(output.status == 0, "\(arguments): \(output.stderr)")
            #expect(!(output.stdout + output.stderr).contains(Self.password), "\(arguments)")
            #expect((output.stdout + output.stderr).contains("persist_pw@127.0.0.1"))
        }
    }

    @Test("a missing database: 73 as the target, 66 as the source, saying it does not exist")
    func missingDatabase() throws {
        guard let port = PostgresScratch.port else { throw PostgresScratch.noServer }
        let url = "postgresql://postgres@127.0.0.1:\(port)/no_such_database_here"
        let (target, first) = try run(["old.db", url])
        defer { first.remove() }
        #expect(target.status == 73, "\(target.stderr)")
        #expect(target.stderr.contains("\"no_such_database_here\" does not exist"))
        #expect(target.stderr.contains("createdb"))
        let (source, second) = try run([url, "new.sqlite"])
        defer { second.remove() }
        #expect(source.status == 66, "\(source.stderr)")
        #expect(source.stderr.contains("does not exist"))
        // The hint of a source's: nothing to create.
        #expect(source.stderr.hasSuffix("persist-migrate: check the database's name in the URL\n"), "\(source.stderr)")
    }

    @Test("--from postgres without a URL, and a non-URL after it, are usage errors")
    func kindWithoutURL() throws {
        let (missing, first) = try run(["--from", "postgres", "--to", "sqlite"])
        defer { first.remove() }
        #expect(missing.status == 64)
        let (notURL, second) = try run(["--from", "postgres", "old.db", "new.sqlite"])
        defer { second.remove() }
        #expect(notURL.status == 64)
        #expect(notURL.stderr.contains("needs a PostgreSQL URL"))
    }

    @Test("the same schema as source and target is a usage error")
    func sameSchema() throws {
        let (output, directory) = try run(["postgresql://app@localhost/app?schema=s", "postgres://app@localhost:5432/app?schema=s"])
        defer { directory.remove() }
        #expect(output.status == 64)
        #expect(output.stderr.contains("same PostgreSQL schema"))
    }
}
