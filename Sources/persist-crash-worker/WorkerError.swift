/// A failure of the worker itself, printed on standard error.
struct WorkerError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
