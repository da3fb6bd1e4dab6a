import Dispatch
import Foundation
import Logging

/// The write scheduler every engine-backed store runs on: the lifecycle, the serial write queue,
/// accessors and their validity, the reentrancy checks, and the asynchronous variants.
///
/// A wrapper makes one for its ``DataStoreEngine`` and conforms its store to
/// ``EngineBackedDataStore``; the whole ``DataStore`` API then forwards here. The scheduler is the
/// only way to the engine: it never hands the engine out, so every write goes through the queue,
/// the phase checks and the reentrancy checks that the engines rely on. Wrappers run legacy code
/// serialized with the writer through ``performExclusive(named:_:)``.
///
/// ```swift
/// public final class MyStore: EngineBackedDataStore {
///     public let scheduler: WriteScheduler
///     public init(path: String, logger: Logger) {
///         scheduler = WriteScheduler(engine: MyEngine(path: path), logger: logger)
///     }
/// }
/// ```
public final class WriteScheduler: Sendable {
    /// The engine this scheduler drives; never handed out beyond the package.
    package let engine: any DataStoreEngine
    /// The logger for lifecycle events and failed writes nobody waited for.
    package let logger: Logger
    /// The commit notifications live queries listen to: posted after every committed write.
    package let observations = ObservationCenter()
    /// The integer identifiers handed out by this store and its child stores.
    package let reservations: IDReservations
    /// The index declarations of an engine that keeps none itself, for the life of this object.
    let catalog = IndexCatalog()
    /// The relation declarations, for an engine that keeps none itself.
    let relationCatalog = RelationCatalog()
    /// Where live queries re-run their requests, one at a time.
    private let observationQueue: DispatchQueue

    private enum Phase {
        case initial, opening, open, closing, closed
    }

    /// Changed only on the write queue (so that setup, tearDown and writes are ordered), read anywhere.
    private let phase = Locked(Phase.initial)
    /// A child store's parent's scheduler: every write of the child reads the parent.
    private let parent: WriteScheduler?
    private let readers = DispatchGroup()
    private let writeQueue: DispatchQueue
    private let completionQueue: DispatchQueue
    private let writeQueueKey = DispatchSpecificKey<Bool>()
    private let completionQueueKey = DispatchSpecificKey<Bool>()

    /// Makes a scheduler for `engine`. Nothing is opened until the store's `setup()`.
    ///
    /// - Parameters:
    ///   - engine: the engine; the scheduler becomes its only user.
    ///   - logger: where lifecycle events (at debug level) and asynchronous write failures nobody
    ///     waited for go.
    public convenience init(engine: any DataStoreEngine, logger: Logger) {
        self.init(engine: engine, logger: logger, reservations: IDReservations())
    }

    /// Makes a scheduler that shares generated identifiers with `reservations` (a child store's
    /// with its parent's); `parent` is the scheduler of a child store's parent.
    package init(engine: any DataStoreEngine, logger: Logger, reservations: IDReservations, parent: WriteScheduler? = nil) {
        self.parent = parent
        self.engine = engine
        self.logger = logger
        self.reservations = reservations
        writeQueue = DispatchQueue(label: "persist.write")
        completionQueue = DispatchQueue(label: "persist.completion")
        observationQueue = DispatchQueue(label: "persist.observe")
        writeQueue.setSpecific(key: writeQueueKey, value: true)
        completionQueue.setSpecific(key: completionQueueKey, value: true)
        if let source = engine.externalChanges {
            observations.setUpstream { [weak self] deliver in
                self?.watchExternalChanges(of: source, deliver) ?? {}
            }
        }
    }

    /// A store released without `tearDown()` ends the live queries still watching it, which
    /// would otherwise wait for changes that can no longer come.
    deinit {
        observations.post(.failed(DataStoreError(
            .misuse, "the store at \(engine.location) was released while it was observed; keep the store while its "
                + "live queries run, and tear it down when done", path: engine.location)))
    }

    private var isOnWriteQueue: Bool { DispatchQueue.getSpecific(key: writeQueueKey) == true }
    private var isOnCompletionQueue: Bool { DispatchQueue.getSpecific(key: completionQueueKey) == true }

    private func notOpenError(_ phase: Phase) -> DataStoreError {
        switch phase {
        case .initial:
            DataStoreError(.misuse, "the store at \(engine.location) is not set up; call setup() first",
                           path: engine.location)
        case .opening:
            DataStoreError(.misuse, "the store at \(engine.location) is still being set up; wait for setup() to return",
                           path: engine.location)
        case .closing, .closed:
            DataStoreError(.misuse, "the store at \(engine.location) was torn down; call setup() to open it again",
                           path: engine.location)
        case .open:
            DataStoreError(.misuse, "the store at \(engine.location) is open", path: engine.location)
        }
    }

    /// Refuses an operation that waits for the write queue from a place that would deadlock. Takes
    /// no lock: the write queue is known by its specific key and read blocks by the thread's own list.
    /// Completion handlers may start writes (which wait for the write queue only), but not wait for
    /// the completion queue they run on.
    private func checkMayWait(_ operation: String, waitsForCompletions: Bool = true) throws {
        if isOnWriteQueue || BlockRegistry.isInside(.write, of: self) {
            throw DataStoreError(
                .misuse,
                "\(operation) was called inside a write block of the same store, which would wait for itself; "
                    + "do the work in the enclosing block, or queue it with writeAsync",
                path: engine.location)
        }
        if BlockRegistry.isInside(.read, of: self) {
            throw DataStoreError(
                .misuse,
                "\(operation) was called inside a read block of the same store (or a write block of one of its "
                    + "child stores, which reads it), which would wait for the read; end the block first, or queue "
                    + "the write with writeAsync",
                path: engine.location)
        }
        // A child's queued writes each read the parent; a parent whose writers go before new readers
        // holds them behind a commit that waits for the read this thread is in.
        var ancestor = parent
        while let current = ancestor {
            if BlockRegistry.isInside(.read, of: current) {
                throw DataStoreError(
                    .misuse,
                    "\(operation) of a child store was called inside a read block of its parent \(current.engine.location) "
                        + "(or a write block of a child store of it, which reads it); the child's writes read the parent, "
                        + "and a write of the parent waiting for that block would stop both. End the block first, or "
                        + "queue the write with writeAsync",
                    path: engine.location)
            }
            // A merge of the child holds the child's queue while it waits for the parent's: a
            // parent's write block waiting for the child's queue would stop both.
            if current.isOnWriteQueue || BlockRegistry.isInside(.write, of: current) {
                throw DataStoreError(
                    .misuse,
                    "\(operation) of a child store was called inside a write block (or escape hatch) of its parent "
                        + "\(current.engine.location); a merge of the child running meanwhile would wait for that block "
                        + "while the block waits for the merge, which would stop both. Do the work after the block, or "
                        + "queue the write with writeAsync",
                    path: engine.location)
            }
            ancestor = current.parent
        }
        if waitsForCompletions && isOnCompletionQueue {
            throw DataStoreError(
                .misuse, "\(operation) was called from a writeAsync completion handler of the same store",
                path: engine.location)
        }
    }

    // MARK: Lifecycle

    /// Opens the engine; does nothing when already open.
    ///
    /// The opening runs on the write queue with no lock held, so an engine that waits for another
    /// process (a file lock, a server) blocks nothing but this call; reads meanwhile are refused as
    /// "still being set up".
    package func setup() throws {
        if phase.value == .open { return }
        try checkMayWait("setup", waitsForCompletions: false)
        try writeQueue.sync {
            let starting = try phase.withLock { phase -> Phase? in
                switch phase {
                case .open: return nil
                case .initial, .closed:
                    defer { phase = .opening }
                    return phase
                case .opening, .closing: throw notOpenError(phase)
                }
            }
            guard let starting else { return }
            do {
                try EngineFailures.translating("opening the store at", of: engine.location) { _ in try engine.open() }
            } catch {
                phase.withLock { $0 = starting }
                throw error
            }
            phase.withLock { $0 = .open }
            logger.debug("opened store", metadata: ["store": .string(engine.location)])
        }
    }

    /// Lets the writes queued before it finish and waits for running reads, then closes the engine.
    package func tearDown() throws {
        try checkMayWait("tearDown")
        let outcome = writeQueue.sync { () -> Result<Bool, any Error> in
            let shouldClose = phase.withLock { phase in
                guard phase == .open else { return false }
                phase = .closing
                return true
            }
            guard shouldClose else { return .success(false) }
            readers.wait()
            let closed = Result {
                try EngineFailures.translating("closing the store at", of: engine.location) { _ in try engine.close() }
            }.map { true }
            phase.withLock { $0 = .closed }
            // The live queries end before the queue lets a setup() open the store again, so that
            // no live query of the store opened again hears of this close. (Ending them waits for
            // nothing: each subscriber finishes its stream.)
            switch closed {
            case .success:
                observations.post(.failed(DataStoreError(
                    .misuse, "the store at \(engine.location) was torn down, which ends its live queries; observe it "
                        + "again after setup()", path: engine.location)))
            case .failure(let error):
                // The store is closed all the same: its live queries end, with the error of the close.
                observations.post(.failed(error as? DataStoreError ?? DataStoreError(
                    .io, "closing the store at \(engine.location) failed: \(error)", path: engine.location)))
            }
            return closed
        }
        completionQueue.sync {}
        switch outcome {
        case .success(false):
            return
        case .success(true):
            logger.debug("closed store", metadata: ["store": .string(engine.location)])
        case .failure(let error):
            throw error
        }
    }

    /// Throws unless the store is open.
    package func checkOpen() throws {
        let current = phase.value
        guard current == .open else { throw notOpenError(current) }
    }

    // MARK: Reads

    /// Runs a read block, as the synchronous `read` of ``DataStore`` describes.
    package func read<T>(_ block: (DataStoreReadAccessor) throws -> T) throws -> T {
        try phase.withLock { phase in
            guard phase == .open else { throw notOpenError(phase) }
            readers.enter()
        }
        defer { readers.leave() }
        return try BlockRegistry.running(.read, of: self) {
            try EngineFailures.translating("a read of the store at", of: engine.location) { blockThrew in
                try engine.read { reader in
                    let context = makeContext()
                    defer { context.close() }
                    return try EngineFailures.block(&blockThrew) {
                        try block(DataStoreReadAccessor(reader: reader, context: context))
                    }
                }
            }
        }
    }

    /// Runs a read block off the calling task's thread.
    package func read<T: Sendable>(_ block: @escaping @Sendable (DataStoreReadAccessor) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try self.read(block) })
            }
        }
    }

    // MARK: Writes

    /// Runs on the write queue: one write transaction. The phase check here is the only lock a
    /// write takes; writes queued before a tearDown still run while it is closing.
    private func performWrite<T>(_ block: (DataStoreReadWriteAccessor) throws -> T) throws -> T {
        let current = phase.value
        guard current == .open || current == .closing else { throw notOpenError(current) }
        var outcome = BlockOutcome()
        let value = try EngineFailures.translating("a write to the store at", of: engine.location) { blockThrew in
            try engine.write { writer in try EngineFailures.block(&blockThrew) { try transaction(writer, &outcome, block) } }
        }
        finish(outcome)
        return value
    }

    /// What a write block decided, for what follows its commit.
    private struct BlockOutcome {
        var committed = false
        var declared: [DataStoreIndex] = []
        var declaredRelations: [DataStoreRelation] = []
    }

    /// One write block's accessor over `writer`: runs `block`, then decides to commit or roll back.
    /// The block is recorded on the thread as this store's write (see ``BlockRegistry``).
    private func transaction<T>(
        _ writer: any StoreWriter, _ outcome: inout BlockOutcome, _ block: (DataStoreReadWriteAccessor) throws -> T
    ) throws -> (value: T, commit: Bool) {
        let context = makeContext()
        defer { context.close() }
        let accessor = DataStoreReadWriteAccessor(writer: writer, context: context)
        let value = try BlockRegistry.running(.write, of: self) { try block(accessor) }
        try context.checkPendingError()
        let commit = (value as? TransactionStatus) != .rollback
        if commit {
            try accessor.flushPendingChanges()
            try accessor.checkReferences()
        }
        outcome.committed = commit
        outcome.declared = context.declaredIndexes
        outcome.declaredRelations = context.declaredRelations
        return (value, commit)
    }

    /// After a block committed: its declared indexes join the catalog, and observers hear of it.
    private func finish(_ outcome: BlockOutcome) {
        guard outcome.committed else { return }
        catalog.add(outcome.declared)
        relationCatalog.add(outcome.declaredRelations)
        observations.post(.changed)
    }

    /// Runs a write block synchronously, as ``writeSync(_:)`` does, in the engine's bulk-load
    /// transaction when it has one: `block` also receives the writer's bulk operations (`nil` for
    /// an engine whose writer has none). Used by ``Migration``; it goes through the same queue and
    /// checks as every other write, and its commit is observed like theirs.
    package func bulkWriteSync<T>(_ block: (DataStoreReadWriteAccessor, (any BulkLoadWriter)?) throws -> T) throws -> T {
        try checkMayWait("writeSync", waitsForCompletions: false)
        return try writeQueue.sync {
            let current = phase.value
            guard current == .open || current == .closing else { throw notOpenError(current) }
            var outcome = BlockOutcome()
            let value = try EngineFailures.translating("a write to the store at", of: engine.location) { blockThrew in
                if let bulkEngine = engine.bulkLoading {
                    return try bulkEngine.bulkWrite { writer in
                        try EngineFailures.block(&blockThrew) { try transaction(writer, &outcome) { try block($0, writer) } }
                    }
                }
                return try engine.write { writer in
                    try EngineFailures.block(&blockThrew) {
                        try transaction(writer, &outcome) { try block($0, writer.bulkLoader) }
                    }
                }
            }
            finish(outcome)
            return value
        }
    }

    private func makeContext() -> BlockContext {
        BlockContext(scheduler: self, location: engine.location)
    }

    /// Runs a write block synchronously (see ``DataStore/writeSync(_:)``).
    package func writeSync<T>(_ block: (DataStoreReadWriteAccessor) throws -> T) throws -> T {
        try checkMayWait("writeSync", waitsForCompletions: false)
        return try writeQueue.sync { try performWrite(block) }
    }

    /// Queues a write block (see ``DataStore/writeAsync(_:completion:)``).
    package func writeAsync<T: Sendable>(
        _ block: @escaping @Sendable (DataStoreReadWriteAccessor) throws -> T,
        completion: (@Sendable (Result<T, any Error>) -> Void)?
    ) {
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
    package func write<T: Sendable>(_ block: @escaping @Sendable (DataStoreReadWriteAccessor) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            writeAsync(block) { result in continuation.resume(with: result) }
        }
    }

    /// Waits for every write queued before the call and for its completion handler.
    package func flush() throws {
        try checkMayWait("flush")
        writeQueue.sync {}
        completionQueue.sync {}
    }

    /// Runs `body` on the write queue, serialized with every write block, while the store is open.
    ///
    /// Wrappers use it for their escape hatches, so that legacy code using the engine's own handle
    /// never runs at the same time as a write transaction.
    ///
    /// ```swift
    /// public func withRawHandle<T>(_ body: (RawHandle) throws -> T) throws -> T {
    ///     try scheduler.performExclusive(named: "withRawHandle") { try engine.withHandle(body) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - operation: the public operation that runs `body`, which a misuse error names.
    ///   - body: the work to run alone.
    /// - Throws: ``DataStoreError/Code/misuse`` inside one of the store's blocks or when the store
    ///   is not open; what `body` throws.
    public func performExclusive<T>(named operation: String = "performExclusive", _ body: () throws -> T) throws -> T {
        try checkMayWait(operation, waitsForCompletions: false)
        let value = try writeQueue.sync {
            let current = phase.value
            guard current == .open || current == .closing else { throw notOpenError(current) }
            return try BlockRegistry.running(.write, of: self, body)
        }
        // Legacy code may have changed anything.
        observations.post(.changed)
        return value
    }

    // MARK: Live queries

    /// A live query of `request` (see ``DataStore/observe(_:)``): the current result at once, then
    /// a fresh one after each committed change, each passed through `transform`.
    package func observe<Output: Sendable>(
        _ request: DataStoreRequest, transform: @escaping @Sendable ([Item]) throws -> Output
    ) -> AsyncThrowingStream<Output, any Error> {
        observe(request, fetch: { accessor in try accessor.items(forRequest: request) }, transform: transform)
    }

    /// A live query of `request` whose result `fetch` reads in a read block (the items, or the
    /// items with their related items), passed through `transform`.
    package func observe<Snapshot: Sendable & Equatable, Output: Sendable>(
        _ request: DataStoreRequest, fetch: @escaping @Sendable (DataStoreReadAccessor) throws -> Snapshot,
        transform: @escaping @Sendable (Snapshot) throws -> Output
    ) -> AsyncThrowingStream<Output, any Error> {
        let results = ReceivedResults(of: observe(request, fetch: fetch), transform: transform, location: engine.location)
        return AsyncThrowingStream(unfolding: results.next)
    }

    /// The results of a live query of `request` as they are refreshed: a slow consumer gets the
    /// newest, which may be one it already received (``ReceivedResults`` drops those).
    private func observe<Snapshot: Sendable & Equatable>(
        _ request: DataStoreRequest, fetch read: @escaping @Sendable (DataStoreReadAccessor) throws -> Snapshot
    ) -> AsyncThrowingStream<Snapshot, any Error> {
        AsyncThrowingStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            do {
                try request.validate()
            } catch let error as DataStoreError {
                continuation.finish(throwing: error.located(at: engine.location))
                return
            } catch {
                continuation.finish(throwing: error)
                return
            }
            let location = engine.location
            let logger = logger
            let query = LiveQuery(
                queue: observationQueue, continuation: continuation, retryDelay: lockRetryDelay,
                isTransient: { [weak self] error in error.code == .locked || self?.engine.isTransient(error) == true },
                onTransient: { error in
                    logger.debug("a live query could not run its query for now; it runs its query again shortly: \(error)",
                                 metadata: ["store": .string(location)])
                },
                fetch: { [weak self] in
                    guard let self else {
                        throw DataStoreError(.misuse, "the store at \(location) was released while it was observed",
                                             path: location)
                    }
                    return try self.read(read)
                })
            let token = observations.subscribe { event in
                switch event {
                case .changed: query.changed()
                case .failed(let error): query.finish(throwing: error)
                }
            }
            continuation.onTermination = { [observations] _ in
                query.terminated()
                observations.unsubscribe(token)
            }
            query.changed()
        }
    }

    /// How long a live query that found the store locked (or met another condition that passes
    /// by itself) waits before it runs again: the engine's poll interval when it watches other
    /// processes, 50 ms otherwise.
    private var lockRetryDelay: Duration {
        engine.externalChanges?.externalChangePollInterval ?? .milliseconds(50)
    }

    /// Polls `source` for other processes' commits every interval while live queries exist;
    /// returns the function that stops it. Everything touching the engine runs on the write queue.
    private func watchExternalChanges(
        of source: any ExternalChangeSource, _ deliver: @escaping @Sendable (ObservationCenter.Event) -> Void
    ) -> @Sendable () -> Void {
        let timer = DispatchSource.makeTimerSource(queue: writeQueue)
        let nanoseconds = source.externalChangePollInterval.dispatchNanoseconds
        let watching = Locked(false)
        timer.setEventHandler { [weak self] in
            guard let self, phase.value == .open else { return }
            do {
                if !watching.value {
                    try source.beginWatchingExternalChanges()
                    watching.withLock { $0 = true }
                    // A commit between the query's first read and this baseline would be missed.
                    deliver(.changed)
                } else if try source.pollExternalChanges() {
                    deliver(.changed)
                }
            } catch let error as DataStoreError {
                deliver(.failed(error))
            } catch {
                deliver(.failed(DataStoreError(.io, "watching \(source.location) for changes failed: \(error)",
                                               path: source.location)))
            }
        }
        timer.schedule(deadline: .now(), repeating: .nanoseconds(nanoseconds), leeway: .nanoseconds(nanoseconds / 10))
        timer.resume()
        let polling = PollingTimer(timer)
        return { [writeQueue] in
            polling.cancel()
            writeQueue.async {
                if watching.value { source.endWatchingExternalChanges() }
            }
        }
    }
}

/// The timer that polls an engine for other processes' commits.
private final class PollingTimer: @unchecked Sendable {
    // @unchecked Sendable: `source` is set once; a dispatch source may be cancelled from any thread.
    private let source: any DispatchSourceTimer

    init(_ source: any DispatchSourceTimer) {
        self.source = source
    }

    func cancel() {
        source.cancel()
    }
}
