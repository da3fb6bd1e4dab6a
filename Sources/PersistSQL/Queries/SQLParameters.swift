/// The parameters of a statement being compiled: each value added gets the dialect's next
/// placeholder, `?` (SQLite) or `$1`, `$2`, … (PostgreSQL).
///
/// ```swift
/// var parameters = SQLParameters<Int64>(numbered: true)
/// let placeholder = parameters.add(42)   // "$1"
/// ```
package struct SQLParameters<Parameter> {
    package private(set) var values: [Parameter] = []
    /// Whether placeholders are numbered (`$n`) rather than positional (`?`).
    let numbered: Bool

    package init(numbered: Bool) {
        self.numbered = numbered
    }

    /// Adds a parameter and returns its placeholder.
    package mutating func add(_ value: Parameter) -> String {
        values.append(value)
        return numbered ? "$\(values.count)" : "?"
    }

    /// Forgets the parameters added after the first `count`.
    package mutating func truncate(to count: Int) {
        values.removeSubrange(count...)
    }

    package var count: Int { values.count }
}
