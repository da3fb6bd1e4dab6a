import Foundation
import Persist
import PersistPostgres
import PersistSQLite

/// 1,000,000 rows of a legacy SQLite table (integer key, text, real and integer columns, one
/// secondary index) copied into a new PostgreSQL schema as `persist-migrate` runs it (one
/// transaction, binary COPY, the table recreated with its index; verification off), against
/// `sqlite3_step` plus libpq's binary COPY of the same rows into the same table and index.
struct MigrateSQLitePostgresScenario: BenchmarkScenario {
    let name = "migrate-sqlite-postgres"
    let defaultItems = 1_000_000

    func run(items: Int, in directory: URL, repetitions: Int) throws -> BenchmarkResult {
        let url = try BenchmarkServer.url()
        let source = directory.appendingPathComponent("legacy-pg-source.sqlite").path
        try RawPostgresCopy.legacySQLite(count: items, at: source)
        defer { try? SQLiteDataStore.deleteFiles(atPath: source) }
        let store = try ToolLikeMigration.sqliteSource(source)
        defer { try? store.tearDown() }
        return try PostgresMigration.compare(self, items: items, repetitions: repetitions, source: store, url: url,
                                             note: "ratio = sqlite3_step + libpq binary COPY into the same table and "
                                                + "index ÷ the library") { schema in
            try RawPostgresCopy.sqliteToPostgres(source: source, url: url, schema: schema)
        }
    }
}

/// 1,000,000 native items of a GDBM store copied into a new PostgreSQL schema as `persist-migrate`
/// runs it (verification off), against `gdbm_fetch` of every pair plus libpq's binary COPY of the
/// pairs into a keyed `bytea` table.
struct MigrateGDBMPostgresScenario: BenchmarkScenario {
    let name = "migrate-gdbm-postgres"
    let defaultItems = 1_000_000

    func run(items: Int, in directory: URL, repetitions: Int) throws -> BenchmarkResult {
        let url = try BenchmarkServer.url()
        let source = directory.appendingPathComponent("migrate-pg-source.gdbm").path
        try BenchmarkDataset.gdbm(count: items, at: source)
        defer { try? FileManager.default.removeItem(atPath: source) }
        let store = try ToolLikeMigration.gdbmSource(source, raw: false)
        defer { try? store.tearDown() }
        return try PostgresMigration.compare(self, items: items, repetitions: repetitions, source: store, url: url,
                                             note: "ratio = gdbm_fetch + libpq binary COPY of the pairs into a keyed "
                                                + "bytea table ÷ the library") { schema in
            try RawPostgresCopy.gdbmToPostgres(source: source, url: url, schema: schema)
        }
    }
}

/// The same 1,000,000 rows back: a PostgreSQL schema holding the legacy table copied to a new
/// SQLite database as `persist-migrate` runs it (verification off), against
/// `COPY … TO STDOUT (FORMAT binary)` plus prepared SQLite inserts into the same table and index.
struct MigratePostgresSQLiteScenario: BenchmarkScenario {
    let name = "migrate-postgres-sqlite"
    let defaultItems = 1_000_000

    func run(items: Int, in directory: URL, repetitions: Int) throws -> BenchmarkResult {
        let url = try BenchmarkServer.url()
        let seed = directory.appendingPathComponent("legacy-pg-seed.sqlite").path
        let libraryPath = directory.appendingPathComponent("legacy-pg-library.sqlite").path
        let baselinePath = directory.appendingPathComponent("legacy-pg-baseline.sqlite").path
        let schema = BenchmarkServer.newSchema(name)
        defer {
            BenchmarkDataset.dropPostgres(schema, url: url)
            for path in [seed, libraryPath, baselinePath] { try? SQLiteDataStore.deleteFiles(atPath: path) }
        }
        try RawPostgresCopy.legacySQLite(count: items, at: seed)
        try RawPostgresCopy.sqliteToPostgres(source: seed, url: url, schema: schema)
        let store = PostgresDataStore(url: url, options: .init(schema: schema, readerConnections: 1, logger: .benchmark))
        try store.setup()
        defer { try? store.tearDown() }
        var copied = 0
        let (library, baseline, peak) = try AlternatingMeasurement(repetitions: repetitions).run(
            prepare: {},
            library: {
                copied = try ToolLikeMigration.run(from: store, to: .sqlite, at: libraryPath, verify: false).written
            },
            baseline: {
                try RawPostgresCopy.postgresToSQLite(url: url, schema: schema, target: baselinePath)
            })
        guard copied == items else { throw BenchmarkError("the migration copied \(copied) of \(items) items") }
        return result(items: items, library: library, baseline: baseline, peak: peak,
                      note: "ratio = COPY TO STDOUT binary + prepared SQLite inserts into the same table and index ÷ the library")
    }
}

/// A migration into a new PostgreSQL schema as `persist-migrate` runs it: one transaction.
enum PostgresMigration {
    static func run(from source: any DataStore, toSchema schema: String, url: String) throws -> MigrationReport {
        let target = PostgresDataStore(url: url, options: .init(schema: schema, readerConnections: 1, logger: .benchmark))
        try target.setup()
        defer { try? target.tearDown() }
        var options = MigrationOptions(verify: false)
        options.atomic = true
        return try Migration(source: source, target: target, options: options).run()
    }

    /// Times `scenario`'s library side (a copy of `source` into a new schema) against `baseline`
    /// (the raw loop into another new schema), alternately, each from a dropped schema.
    static func compare(_ scenario: some BenchmarkScenario, items: Int, repetitions: Int, source: any DataStore,
                        url: String, note: String, baseline: (String) throws -> Void) throws -> BenchmarkResult {
        let librarySchema = BenchmarkServer.newSchema(scenario.name)
        let baselineSchema = BenchmarkServer.newSchema(scenario.name + "-raw")
        defer {
            BenchmarkDataset.dropPostgres(librarySchema, url: url)
            BenchmarkDataset.dropPostgres(baselineSchema, url: url)
        }
        var copied = 0
        let (library, baselineSeconds, peak) = try AlternatingMeasurement(repetitions: repetitions).run(
            prepare: {
                BenchmarkDataset.dropPostgres(librarySchema, url: url)
                BenchmarkDataset.dropPostgres(baselineSchema, url: url)
            },
            library: { copied = try run(from: source, toSchema: librarySchema, url: url).written },
            baseline: { try baseline(baselineSchema) })
        guard copied == items else { throw BenchmarkError("the migration copied \(copied) of \(items) items") }
        return scenario.result(items: items, library: library, baseline: baselineSeconds, peak: peak, note: note)
    }
}
