/// Makes the failures of a store's engine ``DataStoreError``s, whoever wrote the engine, without
/// touching what the caller's own block throws through it.
///
/// An engine's `open`, `close`, and the start and commit of its `read` and `write`, may throw an
/// error of its own type (a Foundation error, say, in a wrapper written outside Persist). The store
/// promises that every error it throws is a ``DataStoreError`` naming the store, so such an error
/// becomes an ``DataStoreError/Code/io`` one with the original as its engine message. What the block
/// passed to the engine throws (the caller's block, and the accessor operations inside it) passes
/// unchanged: the contract rethrows a block's own error as it was thrown.
enum EngineFailures {
    /// Runs `call`, an engine call that runs a block wrapped in ``block(_:_:)`` with the flag it is
    /// given; an error that did not come from that block and is not a ``DataStoreError`` becomes one.
    @inline(__always)
    static func translating<T>(
        _ operation: String, of location: @autoclosure () -> String, _ call: (_ blockThrew: inout Bool) throws -> T
    ) throws -> T {
        var blockThrew = false
        do {
            return try call(&blockThrew)
        } catch let error as DataStoreError {
            throw error
        } catch where blockThrew {
            throw error
        } catch {
            let location = location()
            throw DataStoreError(.io, "\(operation) \(location) failed: \(error)", path: location,
                                 engineMessage: "\(error)")
        }
    }

    /// Runs the block an engine call was given, recording in `threw` that an error came from it.
    @inline(__always)
    static func block<T>(_ threw: inout Bool, _ body: () throws -> T) rethrows -> T {
        do {
            return try body()
        } catch {
            threw = true
            throw error
        }
    }
}
