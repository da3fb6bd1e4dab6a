import Persist
import PersistSQL

/// The store's table of the PostgreSQL enum types whose names columns of recreated tables are
/// declared with, so that a later migration back to PostgreSQL creates each type again:
/// `persist_enum_types (type_name TEXT PRIMARY KEY, labels TEXT NOT NULL)`, the labels a JSON
/// array of strings in the enum's order (`["happy","sad"]`). Made only when a recreated table's
/// description names enum types.
enum EnumTypeTable {
    private static let operation = "Recording enum types"
    private static let quoted = SQLName.quoted(DatabaseSchema.enumTable)

    /// Records `types` (name → labels), creating the table first if the database lacks it.
    static func record(_ types: [String: [String]], _ connection: SQLiteConnection) throws {
        guard !types.isEmpty else { return }
        try connection.executeOnce(
            "CREATE TABLE IF NOT EXISTS \(quoted) (type_name TEXT NOT NULL PRIMARY KEY, labels TEXT NOT NULL) WITHOUT ROWID",
            operation: operation)
        for (name, labels) in types.sorted(by: { ByteOrder.precedes($0.key, $1.key) }) {
            let text = try JSONValueCoding.strict.encode(.array(labels.map(Value.string)))
            try connection.execute("INSERT OR REPLACE INTO \(quoted) (type_name, labels) VALUES (?1, ?2)",
                                   [.text(name), .text(String(decoding: text, as: UTF8.self))], operation: operation)
        }
    }

    /// The recorded enum types among `names` (declared types, an array's without `[]`); none when
    /// the database has no such table.
    static func types(named names: Set<String>, _ connection: SQLiteConnection) throws -> [String: [String]] {
        guard !names.isEmpty, try connection.integer(
            "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?1", [.text(DatabaseSchema.enumTable)],
            operation: operation) > 0 else { return [:] }
        var types: [String: [String]] = [:]
        try connection.withStatement("SELECT type_name, labels FROM \(quoted)") { statement in
            while try statement.step(operation) {
                let name = statement.text(0)
                guard names.contains(name) else { continue }
                guard case .array(let elements)? = try? JSONValueCoding.strict.decode(Array(statement.text(1).utf8)) else {
                    throw corrupt(name, connection.path)
                }
                var labels: [String] = []
                for element in elements {
                    guard case .string(let label) = element else { throw corrupt(name, connection.path) }
                    labels.append(label)
                }
                types[name] = labels
            }
        }
        return types
    }

    private static func corrupt(_ name: String, _ path: String) -> DataStoreError {
        DataStoreError(
            .corrupt,
            "the enum type \(String(reflecting: name)) recorded in \(DatabaseSchema.enumTable) of the SQLite database at "
                + "\(path) has labels that are no JSON array of strings; fix or delete its row with the sqlite3 shell",
            path: path)
    }
}
