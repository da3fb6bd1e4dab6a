import Foundation
import Persist
import PersistPostgres
import Testing

/// A migration from PostgreSQL to PostgreSQL recreates an enum type and every declared type
/// exactly, and copies the values of every everyday type.
@Suite("Migrations between PostgreSQL schemas keep everyday types", .serialized)
struct EverydayTypeMigrationTests {
    /// `column format_type` of each column of `table` in `schema`, in table order.
    static func declaredTypes(_ schema: String, _ table: String) throws -> [String] {
        let connection = try TestServer.connect()
        defer { connection.close() }
        let result = try connection.execute("""
            SELECT a.attname::text, pg_catalog.format_type(a.atttypid, a.atttypmod) FROM pg_catalog.pg_attribute a
            WHERE a.attrelid = (pg_catalog.quote_ident($1) || '.' || pg_catalog.quote_ident($2))::regclass
              AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum
            """, [.text(schema), .text(table)])
        return try (0..<result.rowCount).map { row in "\(try result.text(row, 0) ?? "") \(try result.text(row, 1) ?? "")" }
    }

    /// The labels of the enum `name` in `schema`, in order.
    static func labels(_ schema: String, _ name: String) throws -> [String] {
        let connection = try TestServer.connect()
        defer { connection.close() }
        let result = try connection.execute("""
            SELECT e.enumlabel::text FROM pg_catalog.pg_enum e JOIN pg_catalog.pg_type t ON t.oid = e.enumtypid
            JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace WHERE n.nspname = $1 AND t.typname = $2
            ORDER BY e.enumsortorder
            """, [.text(schema), .text(name)])
        return try (0..<result.rowCount).map { try result.text($0, 0) ?? "" }
    }

    @Test("the enum type is created and every column keeps its declared type and values")
    func recreatesTypes() throws {
        try withPostgresStore(creatingWith: EverydayTypeTests.table) { source, sourceSchema in
            try withPostgresStore { target, schema in
                let report = try Migration(source: source, target: target, options: MigrationOptions()).run()
                #expect(report.written == 1 && report.verified)
                #expect(try Self.labels(schema, "mood") == ["sad", "ok", "happy"])
                let before = try Self.declaredTypes(sourceSchema, "everyday")
                #expect(before.contains("name character varying(40)"))
                #expect(before.contains("feelings \(sourceSchema).mood[]") || before.contains("feelings mood[]"))
                let after = try Self.declaredTypes(schema, "everyday")
                #expect(after.map { $0.replacingOccurrences(of: schema + ".", with: "") }
                            == before.map { $0.replacingOccurrences(of: sourceSchema + ".", with: "") })
                let copied = try target.read { try $0.item(ofType: "everyday", id: 1) }
                #expect(copied == (try source.read { try $0.item(ofType: "everyday", id: 1) }))
            }
        }
    }

    @Test("an enum of the same name with other labels in the target stops the run, naming it")
    func conflictingEnum() throws {
        try withPostgresStore(creatingWith: EverydayTypeTests.table) { source, _ in
            try withPostgresStore(creatingWith: "CREATE TYPE mood AS ENUM ('sad', 'happy');") { target, _ in
                let error = #expect(throws: DataStoreError.self) {
                    _ = try Migration(source: source, target: target, options: MigrationOptions()).run()
                }
                #expect(error?.code == .unsupported)
                #expect(error?.message.contains("mood") == true)
            }
        }
    }
}
