/// Checks a ``MigrationCancellation`` every few hundred calls, for loops over every item (the
/// existence check, the verification) that would otherwise run to their end after a cancel.
struct CancellationPacer {
    private let cancellation: MigrationCancellation?
    private var calls = 0

    /// Items between two looks at the cancellation.
    static let interval = 256

    init(_ cancellation: MigrationCancellation?) {
        self.cancellation = cancellation
    }

    /// Throws `CancellationError` when cancelled, looking once every ``interval`` calls.
    mutating func check() throws {
        calls += 1
        guard calls >= Self.interval else { return }
        calls = 0
        try cancellation?.check()
    }
}
