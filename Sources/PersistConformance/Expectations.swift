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
        Issue.record("expected a DataStoreError with code \(code), but nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch let error as DataStoreError {
        #expect(error.code == code, "expected code \(code), got \(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected a DataStoreError with code \(code), got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// The async form of ``expectError(_:sourceLocation:_:)``.
///
/// ```swift
/// await expectError(.misuse) { try await store.read { _ in 1 } }
/// ```
@discardableResult
public func expectError<R>(
    _ code: DataStoreError.Code,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> R
) async -> DataStoreError? {
    do {
        _ = try await body()
        Issue.record("expected a DataStoreError with code \(code), but nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch let error as DataStoreError {
        #expect(error.code == code, "expected code \(code), got \(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected a DataStoreError with code \(code), got \(error)", sourceLocation: sourceLocation)
        return nil
    }
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

/// A value shared between threads in tests: `Locked` from Persist, under the name the suite uses.
public typealias Shared = Locked
