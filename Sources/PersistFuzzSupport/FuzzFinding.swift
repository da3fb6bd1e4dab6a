import Foundation

/// How a fuzz target reports a finding: the details on standard error, then `abort()`, which
/// libFuzzer catches as a crash and saves the input for (and which ends a replay run with an error).
///
/// ```swift
/// if decoded != value { FuzzFinding.report("\(bytes) does not round-trip") }
/// ```
public enum FuzzFinding {
    /// Prints `details` and ends the process with `SIGABRT`.
    public static func report(_ details: String) -> Never {
        FileHandle.standardError.write(Data("fuzz finding: \(details)\n".utf8))
        abort()
    }
}
