import Foundation
import Persist
import Testing

/// One named contract test, runnable against any ``StoreFactory``.
///
/// ```swift
/// @Test(arguments: ConformanceSuite.tests(for: .inMemory))
/// func contract(_ test: ConformanceTest) async throws {
///     try await test.run(with: .inMemory)
/// }
/// ```
public struct ConformanceTest: Sendable, CustomStringConvertible, CustomTestStringConvertible {
    /// The suite section the test belongs to.
    public enum Group: String, Sendable, CaseIterable {
        case lifecycle, items, blocks, concurrency, requests, entities, differential, children
        case identifiers, setWrites, aggregates, indexes, relations

        /// Every section but ``concurrency``, for a test function of its own, so that the
        /// concurrency section can run apart (under ThreadSanitizer, `--filter concurrency`).
        ///
        /// ```swift
        /// @Test("contract", arguments: ConformanceSuite.tests(for: .inMemory, in: ConformanceTest.Group.allButConcurrency))
        /// func contract(_ test: ConformanceTest) async throws { try await test.run(with: .inMemory) }
        /// ```
        public static let allButConcurrency: Set<Group> = Set(allCases).subtracting([.concurrency])
    }

    /// What the test checks, as a sentence.
    public let name: String
    /// The section of the suite.
    public let group: Group
    /// Capabilities the store needs for this test to apply.
    public let requires: StoreFactory.Capabilities
    private let body: @Sendable (ConformanceContext) async throws -> Void

    init(
        _ name: String,
        group: Group,
        requires: StoreFactory.Capabilities = [],
        _ body: @escaping @Sendable (ConformanceContext) async throws -> Void
    ) {
        self.name = name
        self.group = group
        self.requires = requires
        self.body = body
    }

    /// A readable rendering, for messages and logs.
    public var description: String { "[\(group.rawValue)] \(name)" }
    /// The name Swift Testing shows for the test.
    public var testDescription: String { description }

    /// Runs the test against `factory` in a fresh temporary directory, removed afterwards.
    public func run(with factory: StoreFactory) async throws {
        let context = try ConformanceContext(factory: factory)
        defer { context.finish() }
        try await body(context)
    }
}
