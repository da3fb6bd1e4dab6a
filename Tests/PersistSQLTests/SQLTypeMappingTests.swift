import Persist
import PersistSQL
import Testing

@Suite("Declared types map between SQL engines by the documented table")
struct SQLTypeMappingTests {
    @Test("SQLite → PostgreSQL follows affinity: INTEGER bigint, REAL double precision (never real), TEXT, BLOB, NUMERIC")
    func sqliteToPostgres() {
        let cases: [(String, String)] = [
            ("INTEGER", "bigint"), ("int", "bigint"), ("BIGINT", "bigint"), ("REAL", "double precision"),
            ("FLOAT", "double precision"), ("DOUBLE PRECISION", "double precision"), ("TEXT", "text"),
            ("VARCHAR(80)", "text"), ("CLOB", "text"), ("BLOB", "bytea"), ("", "bytea"), ("NUMERIC", "numeric"),
            ("STRING", "numeric"), ("DECIMAL(10,5)", "numeric"), ("BOOLEAN", "numeric"),
        ]
        for (sqlite, postgres) in cases {
            #expect(SQLTypeMapping.translate(sqlite, from: .sqlite, to: .postgresql) == postgres, "\(sqlite)")
        }
        #expect(!SQLTypeMapping.sqliteToPostgres.contains { $0.postgresType == "real" })
    }

    @Test("PostgreSQL → SQLite gives the affinity that keeps the values")
    func postgresToSQLite() {
        let cases: [(String, String)] = [
            ("bigint", "INTEGER"), ("integer", "INTEGER"), ("boolean", "INTEGER"), ("double precision", "REAL"),
            ("real", "REAL"), ("text", "TEXT"), ("character varying(20)", "TEXT"), ("varchar(20)", "TEXT"),
            ("uuid", "TEXT"), ("timestamp with time zone", "TEXT"), ("bytea", "BLOB"), ("numeric(10,2)", "NUMERIC"),
            ("some_extension_type", "BLOB"),
        ]
        for (postgres, sqlite) in cases {
            #expect(SQLTypeMapping.translate(postgres, from: .postgresql, to: .sqlite) == sqlite, "\(postgres)")
        }
    }

    @Test("a round trip SQLite → PostgreSQL → SQLite keeps each column's affinity")
    func roundTripAffinity() {
        for declared in ["INTEGER", "REAL", "TEXT", "BLOB", "NUMERIC", "STRING", "VARCHAR(9)", "DOUBLE"] {
            let there = SQLTypeMapping.translate(declared, from: .sqlite, to: .postgresql)
            let back = SQLTypeMapping.translate(there, from: .postgresql, to: .sqlite)
            #expect(SQLTypeMapping.sqliteAffinity(of: back) == SQLTypeMapping.sqliteAffinity(of: declared), "\(declared)")
        }
    }

    @Test("the same engine keeps a declared type as written")
    func sameEngine() {
        #expect(SQLTypeMapping.translate("STRING", from: .sqlite, to: .sqlite) == "STRING")
        #expect(SQLTypeMapping.translate("varchar(20)", from: .postgresql, to: .postgresql) == "varchar(20)")
    }

    @Test("a table description survives its Value form, and a malformed one is refused")
    func descriptionValue() {
        let description = TableDescription(
            itemType: "MANIFEST_CACHE", key: .init(name: "key", declaredType: "STRING", notNull: true),
            columns: [.init(name: "value", declaredType: "BLOB", notNull: true), .init(name: "e", declaredType: "", unique: true)],
            indexes: [.init(name: "by_value", columns: ["value", "e"], unique: false)], uniqueConstraints: [["e", "value"]],
            withoutRowid: true, keyPosition: 1)
        #expect(TableDescription(value: description.value) == description)
        // Written before UNIQUE constraints over several columns were described: none.
        guard case .object(var older) = description.value else { Issue.record("not an object"); return }
        older["uniqueConstraints"] = nil
        #expect(TableDescription(value: .object(older))?.uniqueConstraints == [])
        older["uniqueConstraints"] = [["e", 5]]
        #expect(TableDescription(value: .object(older)) == nil)
        var rowid = description
        rowid.key = nil
        #expect(TableDescription(value: rowid.value) == rowid)
        #expect(TableDescription(value: .object(["type": "x"])) == nil)
        #expect(TableDescription(value: 5) == nil)
    }
}
