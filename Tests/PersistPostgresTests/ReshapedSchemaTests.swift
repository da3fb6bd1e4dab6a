import Foundation
import Persist
import PersistPostgres
import PersistTestSupport
import Testing

/// A migration with reshape rules recreates an adopted PostgreSQL table in another schema as the
/// rules make it, checked in the catalogs.
@Suite("Migrations between PostgreSQL schemas keep the reshaped schema of an adopted table", .serialized)
struct ReshapedSchemaTests {
    /// `column data_type is_nullable` of each column of `table` in `schema`, in table order.
    static func columns(_ schema: String, _ table: String) throws -> [String] {
        let connection = try TestServer.connect()
        defer { connection.close() }
        let result = try connection.execute(
            "SELECT column_name::text, data_type::text, is_nullable::text FROM information_schema.columns "
                + "WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position", [.text(schema), .text(table)])
        return try (0..<result.rowCount).map { row in
            try (0..<3).map { try result.text(row, $0) ?? "" }.joined(separator: " ")
        }
    }

    /// Each index of `table` in `schema` (`pg_indexes`) as its definition after `USING btree `, sorted.
    static func indexes(_ schema: String, _ table: String) throws -> [String] {
        try PostgresIndexTests.definitions(schema, table).map { name, definition in
            let unique = definition.hasPrefix("CREATE UNIQUE") ? "UNIQUE " : ""
            let columns = definition.components(separatedBy: "USING btree ").last ?? definition
            return unique + (name.hasPrefix("note_") ? name + " " : "") + columns
        }.sorted()
    }

    @Test("rename-type, rename-attribute of an indexed UNIQUE column and drop-attribute of an indexed column and of one in a two-column UNIQUE constraint")
    func reshapedTable() throws {
        try withPostgresStore(creatingWith: LegacyNotes.postgres) { source, _ in
            try withPostgresStore { target, schema in
                var options = MigrationOptions()
                options.reshape = MigrationReshape([
                    .renameType("note", to: "memo"), .renameAttribute("titel", ofType: "note", to: "title"),
                    .dropAttribute("flags", ofType: "note"), .dropAttribute("owner", ofType: "note"),
                ])
                let report = try Migration(source: source, target: target, options: options).run()
                #expect(report.written == 2 && report.verified)
                #expect(try Self.columns(schema, "memo") == ["id bigint NO", "title text NO", "body text YES", "team text NO"])
                // UNIQUE (team) would have refused the second row, which shares the first's team.
                #expect(try Self.indexes(schema, "memo") == ["UNIQUE (id)", "UNIQUE (title)", "note_titel (title, body)"])
                #expect(report.schemaNotes == LegacyNotes.droppedNotes)
                #expect(try target.read { try $0.item(ofType: "memo", id: .int(2)) }?.attributes
                            == ["title": "world", "team": "red"])
            }
        }
    }
}
