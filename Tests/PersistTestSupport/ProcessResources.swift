import Foundation

/// The threads and open file descriptors of this process (Linux's `/proc/self`), which the live
/// query leak tests compare before and after 10,000 observe-and-cancel cycles.
///
/// ```swift
/// let before = try ProcessResources.current()
/// for _ in 0..<10_000 { try await ObservationCycle.run(store, request) }
/// #expect(try ProcessResources.current().grew(from: before) == nil)
/// ```
public struct ProcessResources: Sendable, Equatable {
    public let threads: Int
    public let descriptors: Int

    /// The counts now.
    public static func current() throws -> ProcessResources {
        ProcessResources(threads: try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count,
                         descriptors: try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count)
    }

    /// What grew since `before` by more than `slack`, described, or `nil`.
    ///
    /// The counts are the whole process's, and other tests run in parallel: the slack absorbs
    /// them, while anything each cycle left behind would show thousands of times.
    public func grew(from before: ProcessResources, slack: Int = 32) -> String? {
        var grown: [String] = []
        if threads > before.threads + slack { grown.append("threads: \(before.threads) → \(threads)") }
        if descriptors > before.descriptors + 2 * slack {
            grown.append("file descriptors: \(before.descriptors) → \(descriptors)")
        }
        return grown.isEmpty ? nil : grown.joined(separator: ", ")
    }
}
