import Persist
import PersistSQL
@testable import PersistPostgres
import Testing

/// The key column a table keyed by a rowid it does not name gets in PostgreSQL.
@Suite("Recreated rowid tables name their key as SQLite names the rowid")
struct RowidColumnNameTests {
    private static func columns(_ names: String...) -> [TableDescription.Column] {
        names.map { TableDescription.Column(name: $0, declaredType: "TEXT") }
    }

    @Test("the first of rowid, _rowid_ and oid that no column takes, compared without case as SQLite does; none when all are taken")
    func names() {
        #expect(PostgresWriter.rowidColumnName(avoiding: Self.columns("title", "body")) == "rowid")
        #expect(PostgresWriter.rowidColumnName(avoiding: Self.columns("RowID", "body")) == "_rowid_")
        #expect(PostgresWriter.rowidColumnName(avoiding: Self.columns("rowid", "_ROWID_")) == "oid")
        #expect(PostgresWriter.rowidColumnName(avoiding: Self.columns("ROWID", "_rowid_", "Oid")) == nil)
    }
}
