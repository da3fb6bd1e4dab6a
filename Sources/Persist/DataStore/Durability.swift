/// How durable a returned `writeSync` is.
///
/// ```swift
/// let durability: Durability = .full   // a wrapper's options take it: .init(durability: .full)
/// ```
public enum Durability: String, Sendable, Hashable, CaseIterable {
    /// A returned write survives a crash of the process (kill -9), but not necessarily a power loss.
    case normal
    /// A returned write also survives a power loss or an operating-system crash (data is fsynced).
    case full
}
