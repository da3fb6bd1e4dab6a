import Dispatch
import Foundation

/// Copies every item (or the items of chosen types) from one store to another, in batches, in
/// memory that does not grow with the number of items, with progress reports and verification.
///
/// ```swift
/// let old = GDBMDataStore(path: "old.db", options: .init(readOnly: true))
/// let new = SQLiteDataStore(path: "new.sqlite")
/// try old.setup(); try new.setup()
/// let report = try Migration(source: old, target: new).run { progress in
///     print("\(progress.items) items, \(Int(progress.itemsPerSecond))/s")
/// }
/// print("copied \(report.written), verified: \(report.verified)")
/// ```
///
/// The source is only read, in one read block, so the copy is of one consistent state. The target
/// receives the items in write blocks of ``MigrationOptions/batchSize`` items: a failure part-way
/// leaves the batches before it in place. To get a target that is either untouched or complete,
/// set ``MigrationOptions/atomic`` (one write block for everything; memory then depends on how the
/// target buffers a write block), or copy into a staged file and swap it in, as the
/// `persist-migrate` tool does.
///
/// With ``MigrationOptions/ExistingItems/fail`` (the default) the run checks, before writing
/// anything, that the target holds none of the source's items. Verification (on by default)
/// compares per-type counts and an order-independent ``ItemChecksum`` of what was written with what
/// the target holds afterwards.
public struct Migration: Sendable {
    /// The store items are read from.
    public let source: any DataStore
    /// The store items are written to.
    public let target: any DataStore
    /// What to copy and how.
    public var options: MigrationOptions

    /// Prepares a migration; nothing happens until ``run(progress:)``. Both stores must be set up.
    public init(source: any DataStore, target: any DataStore, options: MigrationOptions = MigrationOptions()) {
        self.source = source
        self.target = target
        self.options = options
    }

    /// Runs the migration, calling `progress` now and then (at most about 20 times a second) on the
    /// calling thread.
    ///
    /// - Throws: ``DataStoreError/Code/alreadyExists`` when the target already holds source items
    ///   and ``MigrationOptions/ifExists`` is `.fail`; ``DataStoreError/Code/corrupt`` when a source
    ///   item cannot be decoded or verification finds a difference; ``DataStoreError/Code/invalidArgument``
    ///   for bad options; any error of either store.
    public func run(progress: ((MigrationProgress) -> Void)? = nil) throws -> MigrationReport {
        guard source !== target else {
            throw DataStoreError.invalidArgument("the source and the target of a migration are the same store (\(source.location))")
        }
        guard options.batchSize >= 1 else {
            throw DataStoreError.invalidArgument("the batch size is \(options.batchSize); it must be at least 1")
        }
        var tracker = MigrationProgressTracker(callback: progress)
        let types = try selectedTypes()
        let expected: [String: Int]? = progress == nil ? nil : try counts(of: types, in: source)
        tracker.expected = expected
        let preexisting = try counts(of: types, in: target)

        if options.ifExists == .fail && !options.dryRun {
            try checkNoneExist(types.filter { preexisting[$0, default: 0] > 0 }, tracker: &tracker)
        }

        var reports: [MigrationReport.TypeReport] = []
        var copies: [String: TypeCopy] = [:]
        tracker.begin(.copying)
        /// Copies every type, writing each batch with `writeBatch`.
        func copyAll(_ writeBatch: ([Item]) throws -> [ItemID]) throws {
            try source.read { accessor in
                for itemType in types {
                    var copy = TypeCopy(itemType: itemType, verify: options.verify && !options.dryRun,
                                        targetWasEmpty: preexisting[itemType, default: 0] == 0)
                    var batch: [Item] = []
                    batch.reserveCapacity(min(options.batchSize, 65_536))
                    try accessor.forEachItem(forRequest: Self.streamRequest(itemType)) { item in
                        copy.read += 1
                        if copy.verify { copy.sourceChecksum.add(item) }
                        batch.append(item)
                        if batch.count >= options.batchSize {
                            try write(&batch, into: &copy, with: writeBatch)
                        }
                        tracker.advance(itemType)
                    }
                    try write(&batch, into: &copy, with: writeBatch)
                    copies[itemType] = copy
                }
            }
        }
        let verifying = options.verify && !options.dryRun
        if options.atomic && !options.dryRun {
            // Verification happens inside the write block, so a mismatch rolls everything back.
            try target.writeSync { accessor in
                try copyAll { batch in try Self.write(batch, to: accessor, policy: options.ifExists) }
                if verifying {
                    tracker.begin(.verifying)
                    for itemType in types {
                        if let copy = copies[itemType] { try verify(copy, against: accessor, tracker: &tracker) }
                    }
                }
            }
        } else {
            try copyAll { batch in
                try target.writeSync { accessor in try Self.write(batch, to: accessor, policy: options.ifExists) }
            }
            if verifying {
                tracker.begin(.verifying)
                try target.read { accessor in
                    for itemType in types {
                        if let copy = copies[itemType] { try verify(copy, against: accessor, tracker: &tracker) }
                    }
                }
            }
        }
        for itemType in types {
            guard let copy = copies[itemType] else { continue }
            reports.append(MigrationReport.TypeReport(
                itemType: itemType, read: copy.read, written: copy.written, skipped: copy.skipped,
                verified: copy.verify, sourceChecksum: copy.sourceChecksum))
        }
        tracker.begin(.finished)
        return MigrationReport(types: reports, dryRun: options.dryRun, seconds: tracker.elapsed)
    }

    /// What is known about one type while it is copied.
    private struct TypeCopy {
        let itemType: String
        let verify: Bool
        let targetWasEmpty: Bool
        var read = 0
        var written = 0
        var skipped = 0
        var sourceChecksum = ItemChecksum()
        var writtenChecksum = ItemChecksum()
        /// Items left out because the target had them, when verification must know which.
        var skippedIDs: Set<ItemID> = []
    }

    static func streamRequest(_ itemType: String) -> DataStoreRequest {
        var request = DataStoreRequest(itemType: itemType)
        request.ordering = .unspecified
        return request
    }

    private func selectedTypes() throws -> [String] {
        guard let chosen = options.itemTypes else {
            return try source.read { accessor in try accessor.itemTypes() }
        }
        var seen: Set<String> = []
        var types: [String] = []
        for itemType in chosen where seen.insert(itemType).inserted {
            try NameRules.validateItemType(itemType)
            types.append(itemType)
        }
        return types
    }

    private func counts(of types: [String], in store: any DataStore) throws -> [String: Int] {
        try store.read { accessor in
            var counts: [String: Int] = [:]
            for itemType in types { counts[itemType] = try accessor.countItems(forRequest: DataStoreRequest(itemType: itemType)) }
            return counts
        }
    }

    /// Fails before anything is written when the target already holds any source item.
    private func checkNoneExist(_ types: [String], tracker: inout MigrationProgressTracker) throws {
        guard !types.isEmpty else { return }
        tracker.begin(.checking)
        var present: [ItemReference] = []
        var presentCount = 0
        try source.read { reader in
            try target.read { targetReader in
                for itemType in types {
                    try reader.forEachItem(forRequest: Self.streamRequest(itemType)) { item in
                        if try targetReader.item(ofType: itemType, id: item.id) != nil {
                            presentCount += 1
                            if present.count < 10 { present.append(item.reference) }
                        }
                        tracker.advance(itemType)
                    }
                }
            }
        }
        if presentCount > 0 {
            throw DataStoreError(
                .alreadyExists,
                "\(target.location) already holds \(presentCount) of the items to copy (first: "
                    + present.map(\.description).joined(separator: ", ")
                    + "); nothing was written. Choose to replace or skip existing items, or use another target",
                path: target.location, items: present)
        }
    }

    /// Writes one batch with `writeBatch` (or, in a dry run, counts what it would do) and empties it.
    private func write(_ batch: inout [Item], into copy: inout TypeCopy, with writeBatch: ([Item]) throws -> [ItemID]) throws {
        guard !batch.isEmpty else { return }
        defer { batch.removeAll(keepingCapacity: true) }
        if options.dryRun {
            if !copy.targetWasEmpty {
                let existing = try target.read { accessor in
                    try batch.filter { try accessor.item(ofType: $0.itemType, id: $0.id) != nil }.count
                }
                copy.skipped += existing
                copy.written += options.ifExists == .skip ? batch.count - existing : batch.count
            } else {
                copy.written += batch.count
            }
            return
        }
        let skipped = try writeBatch(batch)
        copy.skipped += skipped.count
        copy.written += batch.count - skipped.count
        if copy.verify {
            let left = Set(skipped)
            if !copy.targetWasEmpty { copy.skippedIDs.formUnion(left) }
            for item in batch where left.isEmpty || !left.contains(item.id) {
                copy.writtenChecksum.add(item)
            }
        }
    }

    /// Writes items through a write accessor; returns the identifiers skipped because they exist.
    private static func write(
        _ items: [Item], to accessor: DataStoreReadWriteAccessor, policy: MigrationOptions.ExistingItems
    ) throws -> [ItemID] {
        var skipped: [ItemID] = []
        for item in items {
            switch policy {
            case .fail:
                try accessor.insert(item)
            case .replace:
                try accessor.save(item)
            case .skip:
                if try accessor.item(ofType: item.itemType, id: item.id) != nil {
                    skipped.append(item.id)
                } else {
                    try accessor.insert(item)
                }
            }
        }
        return skipped
    }

    /// Checks that the target, read through `targetReader`, holds exactly what was written for one type.
    private func verify(
        _ copy: TypeCopy, against targetReader: DataStoreReadAccessor, tracker: inout MigrationProgressTracker
    ) throws {
        if copy.targetWasEmpty {
            var found = ItemChecksum()
            try targetReader.forEachItem(forRequest: Self.streamRequest(copy.itemType)) { item in
                found.add(item)
                tracker.advance(copy.itemType)
            }
            guard found == copy.writtenChecksum else {
                throw DataStoreError(
                    .corrupt,
                    "verification failed for \(copy.itemType): \(copy.written) item(s) were written to \(target.location) "
                        + "(checksum \(copy.writtenChecksum.hex)) but it holds \(found.count) (checksum \(found.hex))",
                    path: target.location)
            }
            return
        }
        var differing: [ItemReference] = []
        var differingCount = 0
        try source.read { reader in
            try reader.forEachItem(forRequest: Self.streamRequest(copy.itemType)) { item in
                tracker.advance(copy.itemType)
                if copy.skippedIDs.contains(item.id) { return }
                if try targetReader.item(ofType: item.itemType, id: item.id) != item {
                    differingCount += 1
                    if differing.count < 10 { differing.append(item.reference) }
                }
            }
        }
        if differingCount > 0 {
            throw DataStoreError(
                .corrupt,
                "verification failed for \(copy.itemType): \(differingCount) item(s) in \(target.location) differ from "
                    + "the source (first: \(differing.map(\.description).joined(separator: ", ")))",
                path: target.location, items: differing)
        }
    }
}

/// Calls a migration's progress callback at most about 20 times a second, and at each phase change.
struct MigrationProgressTracker {
    let callback: ((MigrationProgress) -> Void)?
    var expected: [String: Int]?
    private let start = DispatchTime.now().uptimeNanoseconds
    private var phaseStart = DispatchTime.now().uptimeNanoseconds
    private var lastReport: UInt64 = 0
    private var current = MigrationProgress(phase: .checking, itemType: "", itemsInType: 0, expectedInType: nil,
                                            items: 0, expectedItems: nil, elapsed: 0)

    init(callback: ((MigrationProgress) -> Void)?) {
        self.callback = callback
    }

    var elapsed: TimeInterval { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }

    mutating func begin(_ phase: MigrationProgress.Phase) {
        guard callback != nil else { return }
        if current.items > 0 || phase == .finished { report() }
        phaseStart = DispatchTime.now().uptimeNanoseconds
        current.phase = phase
        current.items = 0
        current.itemsInType = 0
        current.itemType = ""
        current.expectedItems = expected.map { $0.values.reduce(0, +) }
        if phase == .finished { report() }
    }

    mutating func advance(_ itemType: String) {
        guard callback != nil else { return }
        if itemType != current.itemType {
            current.itemType = itemType
            current.itemsInType = 0
            current.expectedInType = expected?[itemType]
        }
        current.itemsInType += 1
        current.items += 1
        let now = DispatchTime.now().uptimeNanoseconds
        if now - lastReport >= 50_000_000 {
            lastReport = now
            report()
        }
    }

    private mutating func report() {
        current.elapsed = Double(DispatchTime.now().uptimeNanoseconds - phaseStart) / 1e9
        callback?(current)
    }
}
