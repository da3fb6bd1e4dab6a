import Dispatch

/// The writing half of a migration: receives the reader's chunks, writes them into the target
/// (through the engine's bulk path for types the target held nothing of), and keeps per-type
/// counts, timings and what verification needs.
struct MigrationCopy {
    /// What is known about one type while it is copied.
    struct TypeCopy {
        let itemType: String
        let targetWasEmpty: Bool
        var written = 0
        var skipped = 0
        /// What the reader counted, once it finished the type.
        var source: MigrationSourceStats?
        /// The checksum of the items left out because the target had them.
        var skippedChecksum = ItemChecksum()
        /// Items left out because the target had them, when verification must know which.
        var skippedIDs: Set<ItemID> = []
        var nanoseconds: UInt64 = 0
        var verificationSeconds: Double = 0
        var verified = false

        /// The checksum of what was written: everything read but what was skipped.
        var writtenChecksum: ItemChecksum {
            var checksum = source?.checksum ?? ItemChecksum()
            checksum.subtract(skippedChecksum)
            return checksum
        }
    }

    /// Items waiting to be written in one batch, by type, in the order read.
    typealias Batch = [(itemType: String, items: ArraySlice<ItemRow>)]

    let options: MigrationOptions
    let targetLocation: String
    let preexisting: [String: Int]
    private(set) var types: [String: TypeCopy] = [:]
    /// The adopted SQL tables of the source, by item type, for a target that recreates them.
    var descriptions: [String: any CarriedSchema] = [:]
    /// The described types whose recreation was asked for, and those of them whose table the target
    /// already had (and kept as it was).
    private var recreationTried: Set<String> = []
    private(set) var tablesAlreadyThere: Set<String> = []
    /// Columns of recreated tables that took a fallback, in the order met.
    private(set) var fallbacks: [MigrationReport.Fallback] = []
    /// A chunk received but only partly taken into the last batch.
    private var leftover: (itemType: String, items: ArraySlice<ItemRow>)?

    init(options: MigrationOptions, targetLocation: String, preexisting: [String: Int]) {
        self.options = options
        self.targetLocation = targetLocation
        self.preexisting = preexisting
    }

    /// Whether the copy is checked afterwards (never in a dry run, which writes nothing to check).
    var verifying: Bool { options.verify && !options.dryRun }

    // MARK: Receiving

    /// Records the reader's end of a type.
    private mutating func finish(_ stats: MigrationSourceStats) {
        var copy = types[stats.itemType] ?? newType(stats.itemType)
        copy.source = stats
        types[stats.itemType] = copy
    }

    private func newType(_ itemType: String) -> TypeCopy {
        TypeCopy(itemType: itemType, targetWasEmpty: preexisting[itemType, default: 0] == 0)
    }

    /// Receives everything and writes it in one block (``MigrationOptions/atomic``).
    mutating func copyAll(
        from pipe: MigrationPipe, accessor: DataStoreReadWriteAccessor, bulk: (any BulkLoadWriter)?,
        tracker: inout MigrationProgressTracker, cancellation: MigrationCancellation?
    ) throws {
        var usedBulk = false
        while let message = try pipe.receive() {
            switch message {
            case .items(let itemType, let items):
                try cancellation?.check()
                usedBulk = try write(itemType, items[...], accessor: accessor, bulk: bulk, tracker: &tracker) || usedBulk
            case .endOfType(let stats):
                finish(stats)
            }
        }
        usedBulk = try recreateEmptyTables(bulk: bulk) || usedBulk
        if usedBulk, let bulk { try locating { try bulk.finishBulkLoad() } }
        collectFallbacks(from: bulk)
    }

    /// Recreates the tables of the described types no row was written to (the source's empty
    /// tables), which then get their indexes when the load finishes; `true` when it made one.
    mutating func recreateEmptyTables(bulk: (any BulkLoadWriter)?) throws -> Bool {
        guard let bulk, let recreating = bulk.schemaRecreating, !options.dryRun || bulk.rollsBackBulkInserts
        else { return false }
        var recreated = false
        for itemType in emptyDescribedTypes {
            guard let description = descriptions[itemType] else { continue }
            recreated = try recreate(description, with: recreating) || recreated
        }
        return recreated
    }

    /// Recreates the table of `description`, noting a table the target already had (the first call
    /// for a type that makes none), which keeps its own schema.
    private mutating func recreate(_ description: any CarriedSchema, with recreating: any SchemaRecreatingWriter) throws -> Bool {
        let made = try locating { try recreating.recreate(description) }
        if recreationTried.insert(description.itemType).inserted, !made { tablesAlreadyThere.insert(description.itemType) }
        return made
    }

    /// The described types no row was written to, in byte order of their names.
    var emptyDescribedTypes: [String] {
        descriptions.keys.filter { (types[$0]?.written ?? 0) == 0 }.sorted { ByteOrder.precedes($0, $1) }
    }

    /// Keeps the fallbacks a recreating writer reports, once per column.
    private mutating func collectFallbacks(from bulk: (any BulkLoadWriter)?) {
        guard let recreating = bulk?.schemaRecreating else { return }
        for fallback in recreating.columnFallbacks {
            if let index = fallbacks.firstIndex(where: { $0.itemType == fallback.itemType && $0.column == fallback.column }) {
                fallbacks[index].fallbackType = fallback.fallbackType
            } else {
                fallbacks.append(fallback)
            }
        }
    }

    /// The next batch of up to ``MigrationOptions/batchSize`` items; `nil` when everything was written.
    mutating func nextBatch(from pipe: MigrationPipe) throws -> Batch? {
        var batch: Batch = []
        var count = 0
        while count < options.batchSize {
            let chunk: (itemType: String, items: ArraySlice<ItemRow>)
            if let leftover {
                chunk = leftover
                self.leftover = nil
            } else {
                guard let message = try pipe.receive() else { break }
                switch message {
                case .items(let itemType, let items):
                    chunk = (itemType, items[...])
                case .endOfType(let stats):
                    finish(stats)
                    continue
                }
            }
            let taken = min(chunk.items.count, options.batchSize - count)
            batch.append((chunk.itemType, chunk.items.prefix(taken)))
            count += taken
            if taken < chunk.items.count { leftover = (chunk.itemType, chunk.items.dropFirst(taken)) }
        }
        return batch.isEmpty ? nil : batch
    }

    /// Writes one batch in a write block of its own.
    mutating func write(
        _ batch: Batch, accessor: DataStoreReadWriteAccessor, bulk: (any BulkLoadWriter)?,
        tracker: inout MigrationProgressTracker, cancellation: MigrationCancellation?
    ) throws {
        var usedBulk = false
        for (itemType, items) in batch {
            try cancellation?.check()
            usedBulk = try write(itemType, items, accessor: accessor, bulk: bulk, tracker: &tracker) || usedBulk
        }
        if usedBulk, let bulk { try locating { try bulk.finishBulkLoad() } }
        collectFallbacks(from: bulk)
    }

    // MARK: Writing

    /// Writes items of one type; `true` when they went through the bulk path.
    private mutating func write(
        _ itemType: String, _ items: ArraySlice<ItemRow>, accessor: DataStoreReadWriteAccessor,
        bulk: (any BulkLoadWriter)?, tracker: inout MigrationProgressTracker
    ) throws -> Bool {
        let started = DispatchTime.now().uptimeNanoseconds
        var copy = types[itemType] ?? newType(itemType)
        defer {
            copy.nanoseconds += DispatchTime.now().uptimeNanoseconds - started
            types[itemType] = copy
            tracker.advance(itemType, by: items.count)
        }
        // A type the target held nothing of has nothing to skip or replace: load it in bulk, unless
        // this is a dry run and the engine could not take the load back.
        if copy.targetWasEmpty, let bulk, !options.dryRun || bulk.rollsBackBulkInserts {
            if let description = descriptions[itemType], let recreating = bulk.schemaRecreating {
                _ = try recreate(description, with: recreating)
            }
            try locating { try bulk.bulkInsert(items) }
            copy.written += items.count
            return true
        }
        for row in items {
            let item = row.item
            switch options.ifExists {
            case .fail:
                try accessor.insert(item)
            case .replace:
                try accessor.save(item)
            case .skip:
                if try accessor.item(ofType: item.itemType, id: item.id) != nil {
                    copy.skipped += 1
                    if verifying {
                        copy.skippedChecksum.add(row)
                        if !copy.targetWasEmpty { copy.skippedIDs.insert(item.id) }
                    }
                    continue
                }
                try accessor.insert(item)
            }
            copy.written += 1
        }
        return false
    }

    /// Runs an engine call: an error without a path gets the target's, as accessors do.
    private func locating<T>(_ body: () throws -> T) throws -> T {
        try BlockContext.locating(targetLocation, body)
    }

    // MARK: Reporting

    mutating func recordVerification(of itemType: String, seconds: Double) {
        types[itemType]?.verified = true
        types[itemType]?.verificationSeconds = seconds
    }

    /// The report of one type, or `nil` when nothing of it was read.
    func report(for itemType: String) -> MigrationReport.TypeReport? {
        guard let copy = types[itemType], let source = copy.source else { return nil }
        return MigrationReport.TypeReport(
            itemType: itemType, read: source.read, written: copy.written, skipped: copy.skipped, omitted: source.omitted,
            bytes: source.bytes,
            seconds: Double(copy.nanoseconds) / 1e9, verified: copy.verified,
            verificationSeconds: copy.verificationSeconds, sourceChecksum: source.checksum)
    }
}
