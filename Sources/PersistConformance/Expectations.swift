import Persist
import Foundation
import Testing

/// Expects `body` to throw a ``DataStoreError`` with `code`; returns it for further checks.
@discardableResult
func expectError<R>(
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
@discardableResult
func expectError<R>(
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
func allItems(_ store: any DataStore, _ itemType: String) throws -> [Item] {
    try store.read { accessor in try accessor.items(forRequest: DataStoreRequest(itemType: itemType)) }
}

/// Stores `items` in one write block.
func seed(_ store: any DataStore, _ items: [Item]) throws {
    try store.writeSync { accessor throws in
        for item in items { try accessor.insert(item) }
    }
}

/// A value shared between threads in tests, guarded by a `pthread` mutex (which, unlike
/// `Synchronization.Mutex` on Linux, ThreadSanitizer understands).
final class Shared<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `storage` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var storage: Value

    init(_ value: Value) {
        storage = value
    }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&storage)
    }

    var value: Value { withLock { $0 } }
}
