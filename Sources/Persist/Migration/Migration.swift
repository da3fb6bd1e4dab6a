import Dispatch
import Foundation

/// Copies every item (or the items of chosen types) from one store to another, in memory that
/// does not grow with the number of items, with progress reports and verification.
///
/// ```swift
/// let old: any DataStore = InMemoryDataStore()    // or any store: a file, a database, a server
/// let new: any DataStore = InMemoryDataStore()
/// try old.setup(); try new.setup()
/// let report = try Migration(source: old, target: new).run { progress in
///     print("\(progress.items) items, \(Int(progress.itemsPerSecond))/s")
/// }
/// print("copied \(report.written), verified: \(report.verified)")
/// ```
///
/// The source is only read, in one read block on a thread of its own, so the copy is of one
/// consistent state and reading overlaps with writing; a bounded queue between the two keeps
/// memory flat. The target receives the items in write blocks of ``MigrationOptions/batchSize``
/// items: a failure part-way leaves the batches before it in place. To get a target that is either
/// untouched or complete, set ``MigrationOptions/atomic`` (one write block for everything; memory
/// then depends on how the target buffers a write block), or copy into a staged file and swap it
/// in, as the `persist-migrate` tool does.
///
/// Item types the target held nothing of are loaded through the target engine's bulk path when it
/// has one (an SQL store builds a new table's key index once, after loading its rows). With
/// ``MigrationOptions/ExistingItems/fail`` (the default) the run checks, before writing anything,
/// that the target holds none of the source's items. Verification (on by default) compares
/// per-type counts and an order-independent ``ItemChecksum`` of what was written with what the
/// target holds afterwards, and the number of items of each type the source holds, counted apart
/// from reading them in the same read block, with the number read: a copy that misses rows fails.
public struct Migration: Sendable {
    /// The store items are read from.
    public let source: any DataStore
    /// The store items are written to.
    public let target: any DataStore
    /// What to copy and how.
    public var options: MigrationOptions

    /// Prepares a migration; nothing happens until ``run(progress:cancellation:)``. Both stores must be set up.
    public init(source: any DataStore, target: any DataStore, options: MigrationOptions = MigrationOptions()) {
        self.source = source
        self.target = target
        self.options = options
    }

    /// Runs the migration, calling `progress` now and then (at most about 20 times a second) on the
    /// calling thread.
    ///
    /// - Parameters:
    ///   - progress: called with where the run is; counting the source's items for the totals
    ///     happens only when it is given.
    ///   - cancellation: stops the run from another thread; it then throws `CancellationError`.
    /// - Throws: ``DataStoreError/Code/alreadyExists`` when the target already holds source items
    ///   and ``MigrationOptions/ifExists`` is `.fail`; ``DataStoreError/Code/corrupt`` when a source
    ///   item cannot be decoded or verification finds a difference; ``DataStoreError/Code/invalidArgument``
    ///   for bad options, or a source and target that are the same store or a child of the other;
    ///   `CancellationError` when cancelled; any error of either store.
    public func run(
        progress: ((MigrationProgress) -> Void)? = nil, cancellation: MigrationCancellation? = nil
    ) throws -> MigrationReport {
        guard source !== target else {
            throw DataStoreError.invalidArgument("the source and the target of a migration are the same store (\(source.location))")
        }
        if Self.isAncestor(source, of: target) || Self.isAncestor(target, of: source) {
            throw DataStoreError.invalidArgument(
                "the source (\(source.location)) and the target (\(target.location)) of a migration are a store and a "
                    + "child of it; merge the child into its parent instead")
        }
        guard options.batchSize >= 1 else {
            throw DataStoreError.invalidArgument("the batch size is \(options.batchSize); it must be at least 1")
        }
        var tracker = MigrationProgressTracker(callback: progress)
        let chosen = try chosenTypes()
        try checkNoColumnsOutsideItems(chosen)
        let transform = MigrationTransform(options: options)
        if !options.reshape.isEmpty {
            try options.reshape.validate()
            try options.reshape.validate(sourceTypes: copiedSourceTypes(chosen))
        }
        try cancellation?.check()
        if progress != nil { (tracker.expectedTotal, tracker.expected) = try expectedCounts(of: chosen) }
        let targetTypes = try target.read { accessor in try accessor.itemTypes() }
        // A transform may write items of any type: every type of the target may receive some.
        let candidates = transform.isActive ? targetTypes : chosen.map { $0.filter(targetTypes.contains) } ?? targetTypes
        let preexisting = try counts(of: candidates, in: target)
        if options.ifExists == .fail {
            try checkNoneExist(candidates.filter { preexisting[$0, default: 0] > 0 }, chosen: chosen,
                               transform: transform, tracker: &tracker, cancellation: cancellation)
        }
        try cancellation?.check()

        var copy = MigrationCopy(options: options, targetLocation: target.location, preexisting: preexisting)
        let schemaNotes: [String]
        let notCarried: [(itemType: String, note: String)]
        (copy.descriptions, schemaNotes, notCarried) = try sourceDescriptions(of: chosen, skipping: Set(targetTypes))
        let relations = try carriedRelations(of: chosen)
        tracker.begin(.copying)
        let reader = MigrationReader(source: source, types: chosen, checksums: copy.verifying,
                                     targetLocation: target.location, transform: transform, cancellation: cancellation,
                                     writeBlock: options.atomic ? target.writeScheduler : nil,
                                     rowLocatorTypes: Set(copy.descriptions.values.filter(\.identifiersAreRowLocators).map(\.itemType)))
        defer { reader.stopAndWait() }
        if options.atomic {
            try writeBlock { accessor, bulk in
                try copy.copyAll(from: reader.pipe, accessor: accessor, bulk: bulk, tracker: &tracker,
                                 cancellation: cancellation)
                try Self.declare(relations.relations, with: accessor)
                if copy.verifying {
                    tracker.begin(.verifying)
                    try verify(&copy, against: accessor, chosen: chosen, transform: transform, tracker: &tracker,
                               cancellation: cancellation)
                }
                // The last moment to stop: a cancellation during the verification rolls it all back.
                try cancellation?.check()
                try options.beforeCommit?()
                return options.dryRun ? TransactionStatus.rollback : .commit
            }
        } else {
            while let batch = try copy.nextBatch(from: reader.pipe) {
                try cancellation?.check()
                try writeBlock { accessor, bulk in
                    try copy.write(batch, accessor: accessor, bulk: bulk, tracker: &tracker, cancellation: cancellation)
                    return options.dryRun ? TransactionStatus.rollback : .commit
                }
            }
            if !copy.emptyDescribedTypes.isEmpty {
                try writeBlock { _, bulk in
                    if try copy.recreateEmptyTables(bulk: bulk) { try bulk?.finishBulkLoad() }
                    return options.dryRun ? TransactionStatus.rollback : .commit
                }
            }
            if !relations.relations.isEmpty {
                try cancellation?.check()
                try target.writeSync { accessor in
                    try Self.declare(relations.relations, with: accessor)
                    return options.dryRun ? TransactionStatus.rollback : .commit
                }
            }
            try options.beforeCommit?()
            if copy.verifying {
                try cancellation?.check()
                tracker.begin(.verifying)
                try target.read { accessor in
                    try verify(&copy, against: accessor, chosen: chosen, transform: transform, tracker: &tracker,
                               cancellation: cancellation)
                }
            }
        }
        reader.stopAndWait()
        tracker.begin(.finished)
        let copied = transform.isActive ? copy.types.keys.sorted { ByteOrder.precedes($0, $1) }
            : chosen ?? copy.types.keys.sorted { ByteOrder.precedes($0, $1) }
        var report = MigrationReport(types: copied.compactMap { copy.report(for: $0) }, dryRun: options.dryRun,
                                     seconds: tracker.elapsed, reshape: reader.ruleReports.withLock { $0 },
                                     fallbacks: copy.fallbacks)
        report.verifiedEmptyCopy = copy.verifying
        report.relations = relations.relations
        report.relationNotes = relations.leftOut
        report.schemaNotes = schemaNotes + notCarried.filter { !copy.tablesAlreadyThere.contains($0.itemType) }.map(\.note)
        if let chosen {
            let sourceTypes = Set(try source.read { accessor in try accessor.itemTypes() })
            report.absentTypes = chosen.filter { !sourceTypes.contains($0) }
        }
        return report
    }

    /// Runs one write block on the target: through its scheduler's bulk-load path when it has a
    /// scheduler, so that `block` gets the engine's bulk operations.
    private func writeBlock(_ block: (DataStoreReadWriteAccessor, (any BulkLoadWriter)?) throws -> TransactionStatus) throws {
        if let scheduler = target.writeScheduler {
            _ = try scheduler.bulkWriteSync(block)
        } else {
            _ = try target.writeSync { accessor in try block(accessor, nil) }
        }
    }

    /// Whether `store` is `other`'s parent, or its parent's parent, and so on.
    private static func isAncestor(_ store: any DataStore, of other: any DataStore) -> Bool {
        var current = (other as? ChildDataStore)?.parent
        while let parent = current {
            if parent === store { return true }
            current = (parent as? ChildDataStore)?.parent
        }
        return false
    }

    static func streamRequest(_ itemType: String) -> DataStoreRequest {
        var request = DataStoreRequest(itemType: itemType)
        request.ordering = .unspecified
        return request
    }

    /// The types ``MigrationOptions/itemTypes`` names, checked and without repeats; `nil` for every type.
    private func chosenTypes() throws -> [String]? {
        guard let chosen = options.itemTypes else { return nil }
        var seen: Set<String> = []
        var types: [String] = []
        for itemType in chosen where seen.insert(itemType).inserted {
            try NameRules.validateItemType(itemType)
            types.append(itemType)
        }
        return types
    }

    /// The types of the source the migration copies: every type, or those of `chosen` the source has.
    func copiedSourceTypes(_ chosen: [String]?) throws -> [String] {
        let sourceTypes = try source.read { accessor in try accessor.itemTypes() }
        guard let chosen else { return sourceTypes }
        return chosen.filter(Set(sourceTypes).contains)
    }

    /// How many items the source holds of the types to copy, for progress reports.
    private func expectedCounts(of chosen: [String]?) throws -> (total: Int, perType: [String: Int]?) {
        try source.read { accessor in
            if let rows = accessor.reader.rowStreaming {
                return try rows.countRows(ofTypes: chosen.map(Set.init))
            }
            var counts: [String: Int] = [:]
            for itemType in try chosen ?? accessor.itemTypes() {
                counts[itemType] = try accessor.countItems(forRequest: DataStoreRequest(itemType: itemType))
            }
            return (counts.values.reduce(0, +), counts)
        }
    }

    func counts(of types: [String], in store: any DataStore) throws -> [String: Int] {
        guard !types.isEmpty else { return [:] }
        return try store.read { accessor in
            var counts: [String: Int] = [:]
            for itemType in types { counts[itemType] = try accessor.countItems(forRequest: DataStoreRequest(itemType: itemType)) }
            return counts
        }
    }
}
