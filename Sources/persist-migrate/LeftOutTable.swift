/// A table of a source that no item type carries (no usable key, a view, …), and why.
///
/// A table with rows of its own that the copy would leave behind stops the run before anything is
/// written, unless `--types` leaves it out; the others (views, virtual and foreign tables, whose
/// rows are not this database's to copy as rows) are named in a note.
///
/// ```swift
/// let table = LeftOutTable(name: "w", reason: "no usable key: …", holdsRows: true)
/// ```
struct LeftOutTable: Sendable, Equatable {
    let name: String
    let reason: String
    /// Whether the table holds rows of its own that the copy would leave behind.
    let holdsRows: Bool
}

extension [LeftOutTable] {
    /// The tables whose rows a run copying `chosen` (every type when `nil`) would leave behind: the
    /// tables that hold rows, but those `--types` leaves out on purpose.
    func blocking(chosen: [String]?) -> [LeftOutTable] {
        filter { table in table.holdsRows && (chosen?.contains(table.name) ?? true) }
    }

    /// The failure of a run that would leave the rows of `self` (not empty) behind, before anything
    /// is written: exit 65, naming each table and why, with `untouched` saying what the target is.
    func failure(source: String, untouched: String) -> ToolFailure {
        let named = map { "\(String(reflecting: $0.name)) (\($0.reason))" }.joined(separator: ", ")
        let tables = count == 1 ? "a table" : "\(count) tables"
        return ToolFailure(
            .dataError, code: "tableNotCopied",
            "\(source) holds \(tables) whose rows the copy cannot carry: \(named); \(untouched)",
            hint: "change what the reason names (a primary key of values that are integers, strings or bytes, a name "
                + "no other table or column shares) and copy again, or name the item types to copy with --types to "
                + "leave \(count == 1 ? "it" : "them") out on purpose")
    }
}
