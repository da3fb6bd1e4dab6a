import Dispatch
import Foundation
import Logging

/// The machinery shared by every engine-backed store: lifecycle, the serial write queue,
/// accessors and their validity, reentrancy checks, and the asynchronous variants.
///
/// Wrapper authors rarely use it directly: conform a store to ``EngineBackedDataStore`` and the
/// whole ``DataStore`` API forwards here. Wrappers use ``performExclusive(_:)`` to run legacy code
/// serialized with the writer.
///
/// ```swift
/// public final class MyStore: EngineBackedDataStore {
///     public let runtime: TransactionRuntime
///     public init(path: String, logger: Logger) {
///         runtime = TransactionRuntime(engine: MyEngine(path: path), logger: logger)
///     }
/// }
/// ```
public final class TransactionRuntime: Sendable {
    /// The engine this runtime drives.
    public let engine: any DataStoreEngine
    /// The logger for lifecycle events and failed writes nobody waited for.
    public let logger: Logger

    private enum Phase {
        case initial, open, closing, closed
    }

    private struct State {
        var phase: Phase = .initial
        /// Threads currently inside a read block of this store, with their nesting depth.
        var readerThreads: [UInt: Int] = [:]
    }

    private let state = Locked(State())
    private let readers = DispatchGroup()
    private let writeQueue: DispatchQueue
    private let completionQueue: DispatchQueue
    private let writeQueueKey = DispatchSpecificKey<Bool>()
    private let completionQueueKey = DispatchSpecificKey<Bool>()

    /// Makes a runtime for `engine`. Nothing is opened until ``setup()``.
    public init(engine: any DataStoreEngine, logger: Logger) {
        self.engine = engine
        self.logger = logger
        writeQueue = DispatchQueue(label: "persist.write")
        completionQueue = DispatchQueue(label: "persist.completion")
        writeQueue.setSpecific(key: writeQueueKey, value: true)
        completionQueue.setSpecific(key: completionQueueKey, value: true)
    }

    private static var currentThread: UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }

    private var isOnWriteQueue: Bool { DispatchQueue.getSpecific(key: writeQueueKey) == true }
    private var isOnCompletionQueue: Bool { DispatchQueue.getSpecific(key: completionQueueKey) == true }
    private var isInReadBlock: Bool {
        let thread = Self.currentThread
        return state.withLock { $0.readerThreads[thread, default: 0] > 0 }
    }

    private func notOpenError(_ phase: Phase) -> DataStoreError {
        switch phase {
        case .initial:
            DataStoreError(.misuse, "the store at \(engine.location) is not set up; call setup() first",
                           path: engine.location)
        case .closing, .closed:
            DataStoreError(.misuse, "the store at \(engine.location) was torn down; call setup() to open it again",
                           path: engine.location)
        case .open:
            DataStoreError(.misuse, "the store at \(engine.location) is open", path: engine.location)
        }
    }

    /// Refuses an operation that waits for the write queue from a place that would deadlock.
    /// Completion handlers may start writes (which wait for the write queue only), but not wait for
    /// the completion queue they run on.
    private func checkMayWait(_ operation: String, waitsForCompletions: Bool = true) throws {
        if isOnWriteQueue {
            throw DataStoreError(
                .misuse,
                "\(operation) was called inside a write block of the same store, which would wait for itself; "
                    + "do the work in the enclosing block, or queue it with writeAsync",
                path: engine.location)
        }
        if isInReadBlock {
            throw DataStoreError(
                .misuse,
                "\(operation) was called inside a read block of the same store, which would wait for the read; "
                    + "end the read block first, or queue the write with writeAsync",
                path: engine.location)
        }
        if waitsForCompletions && isOnCompletionQueue {
            throw DataStoreError(
                .misuse, "\(operation) was called from a writeAsync completion handler of the same store",
                path: engine.location)
        }
    }

    // MARK: Lifecycle

    /// Opens the engine; does nothing when already open.
    public func setup() throws {
        try state.withLock { state in
            switch state.phase {
            case .open:
                return
            case .closing:
                throw DataStoreError(.misuse, "the store at \(engine.location) is being torn down", path: engine.location)
            case .initial, .closed:
                try engine.open()
                state.phase = .open
            }
        }
        logger.debug("opened store", metadata: ["store": .string(engine.location)])
    }

    /// Waits for queued writes and running reads, then closes the engine.
    public func tearDown() throws {
        try checkMayWait("tearDown")
        let shouldClose = state.withLock { state in
            guard state.phase == .open else { return false }
            state.phase = .closing
            return true
        }
        guard shouldClose else { return }
        try writeQueue.sync {
            readers.wait()
            defer { state.withLock { $0.phase = .closed } }
            try engine.close()
        }
        completionQueue.sync {}
        logger.debug("closed store", metadata: ["store": .string(engine.location)])
    }

    // MARK: Reads

    /// Runs a read block, as the synchronous `read` of ``DataStore`` describes.
    public func read<T>(_ block: (DataStoreReadAccessor) throws -> T) throws -> T {
        let thread = Self.currentThread
        try state.withLock { state in
            guard state.phase == .open else { throw notOpenError(state.phase) }
            state.readerThreads[thread, default: 0] += 1
        }
        readers.enter()
        defer {
            state.withLock { state in
                let depth = state.readerThreads[thread, default: 1] - 1
                state.readerThreads[thread] = depth > 0 ? depth : nil
            }
            readers.leave()
        }
        return try engine.read { reader in
            let context = BlockContext(logger: logger, location: engine.location)
            defer { context.close() }
            return try block(DataStoreReadAccessor(reader: reader, context: context))
        }
    }

    /// Runs a read block off the calling task's thread.
    public func read<T: Sendable>(_ block: @escaping @Sendable (DataStoreReadAccessor) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try self.read(block) })
            }
        }
    }

    // MARK: Writes

    func checkOpen() throws {
        try state.withLock { state in
            guard state.phase == .open else { throw notOpenError(state.phase) }
        }
    }

    /// Runs on the write queue: one write transaction.
    private func performWrite<T>(_ block: (DataStoreReadWriteAccessor) throws -> T) throws -> T {
        try state.withLock { state in
            // Writes queued before tearDown still run while it is closing.
            guard state.phase == .open || state.phase == .closing else { throw notOpenError(state.phase) }
        }
        return try engine.write { writer in
            let context = BlockContext(logger: logger, location: engine.location)
            defer { context.close() }
            let accessor = DataStoreReadWriteAccessor(writer: writer, context: context)
            let value = try block(accessor)
            try context.checkPendingError()
            let commit = (value as? TransactionStatus) != .rollback
            if commit { try accessor.flushPendingChanges() }
            return (value, commit)
        }
    }

    /// Runs a write block synchronously (see ``DataStore/writeSync(_:)``).
    public func writeSync<T>(_ block: (DataStoreReadWriteAccessor) throws -> T) throws -> T {
        try checkMayWait("writeSync", waitsForCompletions: false)
        try checkOpen()
        return try writeQueue.sync { try performWrite(block) }
    }

    /// Queues a write block (see ``DataStore/writeAsync(_:completion:)``).
    public func writeAsync<T: Sendable>(
        _ block: @escaping @Sendable (DataStoreReadWriteAccessor) throws -> T,
        completion: (@Sendable (Result<T, any Error>) -> Void)?
    ) {
        do {
            try checkOpen()
        } catch {
            deliver(.failure(error), to: completion)
            return
        }
        writeQueue.async {
            let result = Result { try self.performWrite(block) }
            self.deliver(result, to: completion)
        }
    }

    private func deliver<T: Sendable>(_ result: Result<T, any Error>, to completion: (@Sendable (Result<T, any Error>) -> Void)?) {
        if let completion {
            completionQueue.async { completion(result) }
        } else if case .failure(let error) = result {
            logger.error("an asynchronous write failed: \(error)", metadata: ["store": .string(engine.location)])
        }
    }

    /// Queues a write block and suspends until it finishes.
    public func write<T: Sendable>(_ block: @escaping @Sendable (DataStoreReadWriteAccessor) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            writeAsync(block) { result in continuation.resume(with: result) }
        }
    }

    /// Waits for every write queued before the call and for its completion handler.
    public func flush() throws {
        try checkMayWait("flush")
        writeQueue.sync {}
        completionQueue.sync {}
    }

    /// Runs `body` on the write queue, serialized with every write block, while the store is open.
    ///
    /// Wrappers use it for their escape hatches, so that legacy code using the engine's own handle
    /// never runs at the same time as a write transaction.
    public func performExclusive<T>(_ body: () throws -> T) throws -> T {
        try checkMayWait("performExclusive", waitsForCompletions: false)
        try checkOpen()
        return try writeQueue.sync {
            try state.withLock { state in
                guard state.phase == .open || state.phase == .closing else { throw notOpenError(state.phase) }
            }
            return try body()
        }
    }
}
