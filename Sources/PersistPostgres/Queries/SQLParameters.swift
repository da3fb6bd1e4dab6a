/// The parameters of a statement being compiled: each value added gets the next `$n`.
struct SQLParameters {
    private(set) var values: [PGValue] = []

    /// Adds a parameter and returns its placeholder, `$n`.
    mutating func add(_ value: PGValue) -> String {
        values.append(value)
        return "$\(values.count)"
    }

    /// Forgets the parameters added after the first `count`.
    mutating func truncate(to count: Int) {
        values.removeSubrange(count...)
    }

    var count: Int { values.count }
}
