import PersistSQL

extension SQLName {
    /// Whether `name` starts with `sqlite_` in any case: SQLite reserves these table names.
    static func isReservedBySQLite(_ name: String) -> Bool {
        folded(name).hasPrefix("sqlite_")
    }
}
