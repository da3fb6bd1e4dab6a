import Foundation
import Persist

/// What an adopted table holds beyond what a migration recreates (see the "Schema-faithful
/// migrations" article of Persist), so that a migration can say so rather than drop it silently.
extension SQLiteReader {
    private static let listing = "Listing what a copy of a table leaves behind"

    func schemaNotCarried(ofType itemType: String) throws -> [String] {
        guard let table = try checkedSchema.tables[itemType], !table.isCreatedByStore else { return [] }
        let name = [SQLBinding.text(itemType)]
        var left: [String] = []
        let defaults = try rows("SELECT name FROM pragma_table_xinfo(?1, 'main') WHERE hidden = 0 AND dflt_value IS NOT NULL ORDER BY cid", name)
        if !defaults.isEmpty { left.append("the DEFAULT of " + Self.quotedList(defaults.map { $0[0] })) }
        let generated = try rows("SELECT name FROM pragma_table_xinfo(?1, 'main') WHERE hidden IN (2, 3) ORDER BY cid", name)
        if !generated.isEmpty { left.append("the generated " + Self.quotedList(generated.map { $0[0] })) }
        let sql = try rows("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?1", name).first?.first ?? ""
        if Self.mentions("CHECK\\s*\\(", in: sql) { left.append("its CHECK constraints") }
        if Self.mentions("COLLATE", in: sql) { left.append("its column collations") }
        if Self.mentions("ON\\s+CONFLICT", in: sql) { left.append("its ON CONFLICT clauses") }
        if Self.mentions("AUTOINCREMENT", in: sql) { left.append("AUTOINCREMENT (and its sqlite_sequence row)") }
        if try connection.integer("SELECT strict FROM pragma_table_list WHERE schema = 'main' AND name = ?1", name,
                                  operation: Self.listing) != 0 {
            left.append("STRICT")
        }
        // A foreign key that is a relation is carried as one; the others (to columns that are not
        // the parent's key, or to a table that is not an item type) are not.
        let schema = try checkedSchema
        for key in try SchemaLoader.foreignKeys(of: itemType, connection)
        where SchemaLoader.adopted(key, of: itemType, in: schema) == nil
            && !schema.declaredRelations.contains(where: { $0.relation.itemType == itemType && $0.relation.name == key.name }) {
            let to = key.parentColumns.isEmpty ? "" : " (" + Self.quotedList(key.parentColumns) + ")"
            left.append("the FOREIGN KEY (\(Self.quotedList(key.columns))) REFERENCES \(String(reflecting: key.parent))\(to), "
                + "which is no relation (it refers to columns that are not the key of an item type)")
        }
        left += try indexesNotCarried(name)
        let triggers = try rows("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?1 ORDER BY name", name)
        left += triggers.map { "the trigger \(String(reflecting: $0[0]))" }
        return left
    }

    /// The indexes left out (partial, on expressions, on generated columns) and what the others
    /// lose (DESC, collations).
    private func indexesNotCarried(_ name: [SQLBinding]) throws -> [String] {
        var left: [String] = []
        let generated = try rows("SELECT cid FROM pragma_table_xinfo(?1, 'main') WHERE hidden IN (2, 3)", name).map { $0[0] }
        for index in try rows("SELECT name, partial FROM pragma_index_list(?1, 'main') ORDER BY name", name, columns: 2) {
            let details = try rows("SELECT cid, \"desc\", coll FROM pragma_index_xinfo(?1, 'main') WHERE key = 1", [.text(index[0])],
                                   columns: 3)
            let label = String(reflecting: index[0])
            if index[1] != "0" {
                left.append("the partial index \(label)")
            } else if details.contains(where: { $0[0] == "-2" }) {
                left.append("the index on expressions \(label)")
            } else if details.contains(where: { generated.contains($0[0]) }) {
                left.append("the index on generated columns \(label)")
            } else {
                if details.contains(where: { $0[1] != "0" }) { left.append("DESC in the index \(label)") }
                if details.contains(where: { $0[2].uppercased() != "BINARY" }) { left.append("the collation of the index \(label)") }
            }
        }
        return left
    }

    /// Every row of a query, each of its `columns` as text (`""` for NULL).
    private func rows(_ sql: String, _ bindings: [SQLBinding], columns: Int32 = 1) throws -> [[String]] {
        try connection.withStatement(sql, bindings) { statement in
            var found: [[String]] = []
            while try statement.step(Self.listing) {
                found.append((0..<columns).map { statement.text($0) })
            }
            return found
        }
    }

    private static func quotedList(_ names: [String]) -> String {
        names.map { String(reflecting: $0) }.joined(separator: ", ")
    }

    /// Whether `sql` holds the keyword `pattern` outside a word, a quoted name, a string literal or
    /// a comment (ignoring case).
    private static func mentions(_ pattern: String, in sql: String) -> Bool {
        let bare = sql.replacingOccurrences(of: #"'(?:[^']|'')*'|"(?:[^"]|"")*"|`[^`]*`|\[[^\]]*\]|--[^\n]*|/\*[\s\S]*?(?:\*/|$)"#,
                                            with: " ", options: .regularExpression)
        return bare.range(of: "(^|[^A-Za-z0-9_])" + pattern, options: [.regularExpression, .caseInsensitive]) != nil
    }
}
