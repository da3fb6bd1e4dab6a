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

    /// What grew since `before` by more than the slack, described, or `nil`.
    ///
    /// The counts are the whole process's, and other tests run in parallel, starting threads
    /// (Dispatch's pool grows by dozens under blocking work) and opening files: the slack absorbs
    /// them, while anything each of 10,000 cycles left behind would exceed it many times over.
    public func grew(from before: ProcessResources, threadSlack: Int = 256, descriptorSlack: Int = 512) -> String? {
        var grown: [String] = []
        if threads > before.threads + threadSlack { grown.append("threads: \(before.threads) → \(threads)") }
        if descriptors > before.descriptors + descriptorSlack {
            grown.append("file descriptors: \(before.descriptors) → \(descriptors)")
        }
        return grown.isEmpty ? nil : grown.joined(separator: ", ")
    }
}
