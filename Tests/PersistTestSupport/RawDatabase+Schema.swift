/// A table's schema as plain SQL tells it, in a form a test compares at a glance.
extension RawDatabase {
    /// Each column of `table` (`PRAGMA table_info`) as `name TYPE`, with ` NOT NULL` and
    /// ` PRIMARY KEY` when they hold, in table order.
    public func columns(of table: String) throws -> [String] {
        try rows("SELECT name, type, \"notnull\", pk FROM pragma_table_info(?1) ORDER BY cid", [.text(table)]).map { row in
            guard case .text(let name) = row[0], case .text(let type) = row[1] else { return "\(row)" }
            return name + (type.isEmpty ? "" : " " + type) + (row[2] == .integer(1) ? " NOT NULL" : "")
                + (row[3] == .integer(0) ? "" : " PRIMARY KEY")
        }
    }

    /// Each index of `table` (`PRAGMA index_list` and `index_info`), sorted: `UNIQUE (a, b)` for a
    /// UNIQUE constraint's (whose name SQLite makes up), and `[UNIQUE ]INDEX name (a, b)` for one
    /// made with `CREATE INDEX`.
    public func indexes(of table: String) throws -> [String] {
        try rows("SELECT name, \"unique\", origin FROM pragma_index_list(?1)", [.text(table)]).map { row in
            guard case .text(let name) = row[0], case .text(let origin) = row[2] else { return "\(row)" }
            let columns = try rows("SELECT name FROM pragma_index_info(?1) ORDER BY seqno", [.text(name)])
                .map { $0.first.map { value in if case .text(let column) = value { column } else { "\(value)" } } ?? "" }
                .joined(separator: ", ")
            switch origin {
            case "c": return (row[1] == .integer(1) ? "UNIQUE " : "") + "INDEX \(name) (\(columns))"
            case "u": return "UNIQUE (\(columns))"
            default: return "\(origin.uppercased()) (\(columns))"
            }
        }.sorted()
    }
}
