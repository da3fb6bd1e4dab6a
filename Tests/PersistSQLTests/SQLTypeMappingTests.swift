import Persist
import PersistSQL
import Testing

@Suite("Declared types map between SQL engines by the documented table")
struct SQLTypeMappingTests {
    @Test("SQLite → PostgreSQL reads SQLite's spellings, keeps lengths and scales, and falls back by affinity")
    func sqliteToPostgres() {
        let cases: [(String, String)] = [
            ("INTEGER", "bigint"), ("int", "bigint"), ("BIGINT", "bigint"), ("int4", "integer"), ("int2", "smallint"),
            ("SMALLINT", "smallint"), ("TINYINT", "smallint"), ("float4", "real"), ("REAL", "double precision"),
            ("FLOAT", "double precision"), ("DOUBLE", "double precision"), ("DOUBLE PRECISION", "double precision"),
            ("TEXT", "text"), ("CLOB", "text"), ("NVARCHAR(200)", "varchar(200)"), ("VARCHAR(80)", "varchar(80)"),
            ("CHARACTER VARYING(40)", "character varying(40)"), ("NCHAR(5)", "varchar(5)"), ("CHAR(3)", "varchar(3)"),
            ("VARCHAR", "varchar"), ("NVARCHAR", "text"), ("NUMERIC(10,2)", "numeric(10,2)"),
            ("DECIMAL(10, 5)", "numeric(10,5)"), ("NUMERIC", "numeric"), ("DATETIME", "timestamp"),
            ("TIMESTAMP", "timestamp"), ("DATE", "date"), ("TIME", "time"), ("BOOLEAN", "boolean"), ("BLOB", "bytea"),
            ("", "bytea"), ("STRING", "numeric"), ("timestamptz(3)", "timestamp(3) with time zone"),
        ]
        for (sqlite, postgres) in cases {
            #expect(SQLTypeMapping.translate(sqlite, from: .sqlite, to: .postgresql) == postgres, "\(sqlite)")
        }
        #expect(!SQLTypeMapping.sqliteToPostgres.contains { $0.postgresType == "real" })
    }

    @Test("PostgreSQL → SQLite keeps PostgreSQL's spelling where the affinity keeps the values")
    func postgresToSQLite() {
        let cases: [(String, String)] = [
            ("bigint", "INTEGER"), ("integer", "int4"), ("smallint", "int2"), ("real", "float4"), ("boolean", "boolean"),
            ("double precision", "double precision"), ("text", "text"), ("character varying(40)", "character varying(40)"),
            ("varchar(20)", "varchar(20)"), ("character(5)", "bpchar(5)"), ("numeric(10,2)", "numeric(10,2)"),
            ("numeric", "numeric"), ("timestamp without time zone", "timestamp without time zone"),
            ("timestamp(3) without time zone", "timestamp(3) without time zone"),
            ("timestamp with time zone", "timestamp with time zone"), ("date", "date"),
            ("time without time zone", "time without time zone"), ("time with time zone", "time with time zone"),
            ("interval", "interval"), ("text[]", "text[]"), ("integer[]", "integer[]"), ("uuid", "uuid"),
            ("inet", "inet"), ("cidr", "cidr"), ("macaddr", "macaddr"), ("json", "json"), ("jsonb", "jsonb"),
            ("mood", "mood"), ("bytea", "BLOB"), ("serial", "int4"), ("bigserial", "INTEGER"), ("money", "NUMERIC"),
            ("public.mood", "BLOB"), ("\"Mood\"", "BLOB"), ("bit(8)", "BLOB"),
        ]
        for (postgres, sqlite) in cases {
            #expect(SQLTypeMapping.translate(postgres, from: .postgresql, to: .sqlite) == sqlite, "\(postgres)")
        }
    }

    @Test("SQLite's INTEGER keeps meaning 64 bits, and every PostgreSQL type keeps an affinity that holds its values")
    func affinities() {
        let cases: [(String, String)] = [
            ("integer", "INTEGER"), ("smallint", "INTEGER"), ("bigint", "INTEGER"), ("real", "REAL"),
            ("double precision", "REAL"), ("character varying(40)", "TEXT"), ("character(5)", "TEXT"), ("text[]", "TEXT"),
            ("numeric(10,2)", "NUMERIC"), ("bytea", "BLOB"),
        ]
        for (postgres, affinity) in cases {
            let sqlite = SQLTypeMapping.translate(postgres, from: .postgresql, to: .sqlite)
            #expect(SQLTypeMapping.sqliteAffinity(of: sqlite) == affinity, "\(postgres) → \(sqlite)")
        }
    }

    @Test("PostgreSQL → SQLite → PostgreSQL gives every type back as itself")
    func postgresRoundTrip() {
        for declared in [
            "bigint", "integer", "smallint", "real", "double precision", "boolean", "text", "character varying(40)",
            "varchar(20)", "character(5)", "numeric(10,2)", "numeric(30,2)", "numeric", "timestamp without time zone",
            "timestamp", "timestamp with time zone", "date", "time", "time without time zone", "time with time zone",
            "interval", "text[]", "integer[]", "uuid", "inet", "cidr", "macaddr", "json", "jsonb", "bytea",
        ] {
            let there = SQLTypeMapping.translate(declared, from: .postgresql, to: .sqlite)
            let back = SQLTypeMapping.translate(there, from: .sqlite, to: .postgresql)
            #expect(back == declared, "\(declared) → \(there) → \(back)")
        }
    }

    @Test("a round trip SQLite → PostgreSQL → SQLite keeps each column's affinity")
    func roundTripAffinity() {
        for declared in ["INTEGER", "REAL", "TEXT", "BLOB", "NUMERIC", "STRING", "VARCHAR(9)", "DOUBLE", "NVARCHAR(200)",
                         "NUMERIC(10,2)", "DATETIME", "DATE", "BOOLEAN", "int4", "int2", "float4"] {
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
