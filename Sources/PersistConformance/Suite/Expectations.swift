import Persist
import Foundation
import Testing

/// Expects `body` to throw a `DataStoreError` with `code`; returns it for further checks.
///
/// Wrapper test suites use it for their own store-specific tests:
///
/// ```swift
/// let error = expectError(.notFound) { try store.setup() }
/// #expect(error?.path == path)
/// ```
@discardableResult
public func expectError<R>(
    _ code: DataStoreError.Code,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> R
) -> DataStoreError? {
    do {
        _ = try body()
        return checked(nil, code, sourceLocation)
    } catch {
        return checked(error, code, sourceLocation)
    }
}

/// The async form of ``expectError(_:sourceLocation:_:)``.
///
/// It runs `body` on the caller's actor (`isolation`, which the caller leaves out), so a test on
/// the main actor may pass a closure that is not `@Sendable`.
///
/// ```swift
/// await expectError(.misuse) { try await store.read { _ in 1 } }
/// ```
@discardableResult
public func expectError<R>(
    _ code: DataStoreError.Code,
    sourceLocation: SourceLocation = #_sourceLocation,
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> R
) async -> DataStoreError? {
    do {
        _ = try await body()
        return checked(nil, code, sourceLocation)
    } catch {
        return checked(error, code, sourceLocation)
    }
}

/// Records an issue unless `error` is a ``DataStoreError`` with `code`, and returns it if it is one.
private func checked(_ error: (any Error)?, _ code: DataStoreError.Code, _ sourceLocation: SourceLocation) -> DataStoreError? {
    guard let error else {
        Issue.record("expected a DataStoreError with code \(code), but nothing was thrown", sourceLocation: sourceLocation)
        return nil
    }
    guard let error = error as? DataStoreError else {
        Issue.record("expected a DataStoreError with code \(code), got \(error)", sourceLocation: sourceLocation)
        return nil
    }
    #expect(error.code == code, "expected code \(code), got \(error)", sourceLocation: sourceLocation)
    return error
}

/// An error thrown on purpose by tests to make a block fail.
struct DeliberateFailure: Error, Equatable {
    let tag: Int
}

/// Every item of a type, ordered by identifier.
///
/// ```swift
/// #expect(try allItems(store, "Note").map(\.id) == ["a", "b"])
/// ```
public func allItems(_ store: any DataStore, _ itemType: String) throws -> [Item] {
    try store.read { accessor in try accessor.items(forRequest: DataStoreRequest(itemType: itemType)) }
}

/// Stores `items` in one write block.
///
/// ```swift
/// try seed(store, [Item(itemType: "Note", id: "a")])
/// ```
public func seed(_ store: any DataStore, _ items: [Item]) throws {
    try store.writeSync { accessor throws in
        for item in items { try accessor.insert(item) }
    }
}

