import Foundation
import Persist
import PersistPostgres
import PersistTestSupport
import Testing

/// A schema of a test's own on the run's PostgreSQL server (`PERSIST_POSTGRES_URL`), dropped by
/// ``drop()``; plain SQL through `psql` to look at what the tool made.
struct PostgresScratch {
    /// `postgresql://…/db` of the server, without a schema.
    let base: String
    let schema: String

    /// The server's URL, or `nil` when none is set: a test that needs it then fails with
    /// ``noServer``, which says how to start one (server tests are never skipped).
    static var serverURL: String? {
        guard let text = ProcessInfo.processInfo.environment["PERSIST_POSTGRES_URL"], !text.isEmpty else { return nil }
        return text
    }

    /// The server's port, from its URL.
    static var port: String? {
        guard let url = serverURL, let parsed = try? PostgresURL(url) else { return nil }
        return String(parsed.port)
    }

    /// The failure of a test that needs the server when `PERSIST_POSTGRES_URL` is not set.
    static var noServer: PostgresCluster.Failure {
        PostgresCluster.Failure(description: "PERSIST_POSTGRES_URL is not set, so the PostgreSQL tests have no server: "
            + "run them with `scripts/postgres-cluster.sh run swift test`, or start one with `make postgres` and export "
            + "the URL it prints")
    }

    init() throws {
        guard let base = Self.serverURL else { throw Self.noServer }
        self.base = base
        schema = "pgtool_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
    }

    /// The store's URL: the server's with `?schema=` this test's schema.
    var url: String { "\(base)?schema=\(schema)" }

    /// Drops the schema and everything in it.
    func drop() {
        _ = try? sql("DROP SCHEMA IF EXISTS \"\(schema)\" CASCADE")
    }

    /// Runs `statement` with psql (unaligned, tuples only, `|` between fields) and returns its output.
    @discardableResult
    func sql(_ statement: String) throws -> String {
        let output = try ProductRunner.run("/usr/bin/psql", ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
                                                                   "-d", base, "-c", statement])
        guard output.status == 0 else {
            throw PostgresCluster.Failure(description: "psql failed: \(output.stderr)")
        }
        return output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Creates the schema owned by `role`, so that a store logging in as that role can write to it.
    func sqlCreateSchemaFor(role: String) {
        _ = try? sql("CREATE SCHEMA IF NOT EXISTS \"\(schema)\" AUTHORIZATION \(role)")
    }

    /// Every item the schema holds, read through a `PostgresDataStore`.
    func contents() throws -> Set<Item> {
        let store = PostgresDataStore(url: url, options: .init(readerConnections: 1, logger: StoreFiles.quiet))
        try store.setup()
        defer { try? store.tearDown() }
        return try store.read { accessor in
            Set(try accessor.itemTypes().flatMap { try accessor.items(forRequest: DataStoreRequest(itemType: $0)) })
        }
    }

    /// Puts `items` into the schema in one write block.
    func seed(_ items: [Item]) throws {
        let store = PostgresDataStore(url: url, options: .init(readerConnections: 1, logger: StoreFiles.quiet))
        try store.setup()
        defer { try? store.tearDown() }
        try store.writeSync { accessor throws in
            for item in items { try accessor.insert(item) }
        }
    }
}
