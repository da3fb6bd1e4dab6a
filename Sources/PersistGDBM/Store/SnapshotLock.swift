import Foundation
import Persist

/// A readers–writer lock that gives read blocks a stable snapshot of the file.
///
/// Read blocks hold the shared side for their whole duration; a commit's apply phase (and the raw
/// handle escape hatch) holds the exclusive side, so no read ever sees part of a commit. Waiting
/// writers go first, so a stream of readers cannot starve a commit; a thread that already holds
/// the shared side may take it again (a read block nested in another) without waiting. Built on
/// `NSCondition` (`pthread`), which ThreadSanitizer understands.
final class SnapshotLock: @unchecked Sendable {
    // @unchecked Sendable: every stored property below is only used while `condition` is locked.
    private let condition = NSCondition()
    private var readerDepth: [UInt: Int] = [:]
    private var readers = 0
    private var writer: UInt?
    private var waitingWriters = 0
    private let location: String

    init(location: String) {
        self.location = location
    }

    private static var currentThread: UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }

    /// Runs `body` holding the shared side.
    ///
    /// - Throws: `DataStoreError.Code.misuse` when the calling thread holds the exclusive side
    ///   (a read started from inside `withRawHandle`), which would otherwise deadlock.
    func withShared<R>(_ body: () throws -> R) throws -> R {
        let thread = Self.currentThread
        condition.lock()
        if writer == thread {
            condition.unlock()
            throw DataStoreError(.misuse,
                                 "a read block was started inside withRawHandle on the same store (\(location)); "
                                    + "finish the raw handle's work first", path: location)
        }
        let depth = readerDepth[thread, default: 0]
        if depth == 0 {
            while writer != nil || waitingWriters > 0 { condition.wait() }
            readers += 1
        }
        readerDepth[thread] = depth + 1
        condition.unlock()
        defer {
            condition.lock()
            let remaining = readerDepth[thread, default: 1] - 1
            if remaining == 0 {
                readerDepth[thread] = nil
                readers -= 1
                if readers == 0 { condition.broadcast() }
            } else {
                readerDepth[thread] = remaining
            }
            condition.unlock()
        }
        return try body()
    }

    /// Runs `body` holding the exclusive side: no read block runs meanwhile.
    ///
    /// - Throws: `DataStoreError.Code.misuse` when the calling thread is inside a read block.
    func withExclusive<R>(_ body: () throws -> R) throws -> R {
        let thread = Self.currentThread
        condition.lock()
        if readerDepth[thread, default: 0] > 0 || writer == thread {
            condition.unlock()
            throw DataStoreError(.misuse, "the store at \(location) would wait for a read block on the same thread",
                                 path: location)
        }
        waitingWriters += 1
        while readers > 0 || writer != nil { condition.wait() }
        waitingWriters -= 1
        writer = thread
        condition.unlock()
        defer {
            condition.lock()
            writer = nil
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }
}
