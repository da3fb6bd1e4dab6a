import Foundation

/// What a migration's reader counted for one item type of the source.
struct MigrationSourceStats: Sendable {
    let itemType: String
    var read = 0
    /// Items of this source type that the transform left out (also counted in ``read``).
    var omitted = 0
    /// The bytes of the identifiers and attribute values read (see ``ItemSize``).
    var bytes = 0
    /// The checksum of every item read; empty when nothing is verified.
    var checksum = ItemChecksum()
    /// How many items of the source types this type comes from the source held, counted in the
    /// read block the items were read in, apart from reading them; `nil` when nothing is verified
    /// or the source counts only its total. Verification fails when it is not ``read``.
    var counted: Int?
}

/// The reading half of a migration: a thread of its own that streams the source's items in one
/// read block (one consistent state), as rows when the engine can (no dictionary per item; every
/// type in one pass), validates their names, counts and checksums them, and sends them in chunks
/// through a ``MigrationPipe`` to the writing thread.
///
/// Reading and decoding thus overlap with writing, and the pipe's capacity bounds the memory.
final class MigrationReader: Sendable {
    /// Rows per chunk sent through the pipe.
    static let chunkSize = 256
    /// Chunks that may wait in the pipe.
    static let pipeCapacity = 8

    let pipe = MigrationPipe(capacity: MigrationReader.pipeCapacity)
    /// How many items each reshape rule applied to, once the reader has finished.
    let ruleReports = Locked<[MigrationReport.RuleReport]>([])
    private let done = DispatchSemaphore(value: 0)
    private let joined = Locked(false)

    /// Starts reading on a new thread.
    ///
    /// - Parameters:
    ///   - types: the types to copy; every type of the source when `nil`.
    ///   - checksums: whether to checksum every item (for verification).
    ///   - targetLocation: the target's location, named in errors about names no store accepts.
    ///   - transform: what turns each item read into the item written; items are checked,
    ///     counted and checksummed as they come out of it.
    ///   - writeBlock: the scheduler of the target whose one write block waits for the items
    ///     (an atomic migration), if any. The reading thread is recorded as inside that block, so
    ///     that a transform writing to the target (or merging a child into it), which would wait
    ///     for the block while the block waits for the transform, is refused as misuse.
    ///   - rowLocatorTypes: the types whose identifiers only tell rows apart, checksummed without them.
    init(source: any DataStore, types: [String]?, checksums: Bool, targetLocation: String,
         transform: MigrationTransform, cancellation: MigrationCancellation?, writeBlock: WriteScheduler?,
         rowLocatorTypes: Set<String> = []) {
        let pipe = pipe
        let done = done
        let ruleReports = ruleReports
        let thread = Thread {
            var failure: (any Error)?
            do {
                var reading = Reading(pipe: pipe, checksums: checksums, targetLocation: targetLocation,
                                      cancellation: cancellation, transform: transform.isActive ? transform : nil,
                                      rowLocatorTypes: rowLocatorTypes)
                let readAll = { try source.read { accessor in try reading.readAll(accessor, types: types) } }
                if let writeBlock {
                    try BlockRegistry.running(.write, of: writeBlock, readAll)
                } else {
                    try readAll()
                }
                let reports = reading.transform?.ruleReports ?? transform.ruleReports
                ruleReports.withLock { $0 = reports }
            } catch is MigrationPipeClosed {
                // The writer stopped first and reports its own error.
            } catch {
                failure = error
            }
            pipe.finish(failure: failure)
            done.signal()
        }
        thread.name = "persist.migration.reader"
        thread.start()
    }

    /// Stops the reader (if it is still running) and waits for its thread to end its read block.
    func stopAndWait() {
        guard joined.withLock({ joined in
            defer { joined = true }
            return !joined
        }) else { return }
        pipe.close()
        done.wait()
    }

    /// The state of one read: chunks being filled and counts, by type.
    private struct Reading {
        let pipe: MigrationPipe
        let checksums: Bool
        let targetLocation: String
        let cancellation: MigrationCancellation?
        /// `nil` when items are copied as they are.
        var transform: MigrationTransform?
        /// Types checksummed without their identifiers.
        let rowLocatorTypes: Set<String>
        /// The chunks and counts of the types other than the current one.
        var chunks: [String: [ItemRow]] = [:]
        var stats: [String: MigrationSourceStats] = [:]
        /// The type of the last row, with its chunk and counts kept out of the dictionaries, so
        /// that a run of rows of one type costs no lookups.
        var currentType = ""
        var hasCurrent = false
        var currentChunk: [ItemRow] = []
        var currentStats = MigrationSourceStats(itemType: "")
        /// Shapes whose names were checked, kept alive so that their identities stay unique.
        var checkedShapes: [ObjectIdentifier: AttributeNames] = [:]
        var checkedTypes: Set<String> = []
        var lastShape: AttributeNames?
        var lastType = ""

        mutating func readAll(_ accessor: DataStoreReadAccessor, types: [String]?) throws {
            // Counted apart from the stream, in the same read block (one state), for verification.
            let counted = checksums ? try Self.count(accessor, types: types) : nil
            if let rows = accessor.reader.rowStreaming {
                try rows.forEachRow(ofTypes: types.map(Set.init)) { row in
                    try take(row)
                    return true
                }
            } else {
                for itemType in try types ?? accessor.itemTypes() {
                    try accessor.forEachItem(forRequest: Migration.streamRequest(itemType)) { item in
                        try take(ItemRow(item))
                    }
                }
            }
            putBackCurrent()
            if let counted { try takeCounts(counted) }
            // Every chosen type is reported (under the name the reshape gives it), also when the
            // source holds none of it.
            for itemType in (types ?? []).map({ transform?.reshape.targetType(of: $0) ?? $0 })
            where stats[itemType] == nil {
                stats[itemType] = MigrationSourceStats(itemType: itemType)
            }
            for itemType in stats.keys.sorted(by: { ByteOrder.precedes($0, $1) }) {
                if let chunk = chunks[itemType], !chunk.isEmpty { try send(.items(itemType: itemType, chunk)) }
                if let typeStats = stats[itemType] { try send(.endOfType(typeStats)) }
            }
        }

        /// How many items the source holds of `types` (every type when `nil`): in total, and by
        /// source type when the reader counts them so.
        private static func count(_ accessor: DataStoreReadAccessor, types: [String]?) throws
            -> (total: Int, perType: [String: Int]?)
        {
            if let rows = accessor.reader.rowStreaming { return try rows.countRows(ofTypes: types.map(Set.init)) }
            var counts: [String: Int] = [:]
            for itemType in try types ?? accessor.itemTypes() {
                counts[itemType] = try accessor.countItems(forRequest: DataStoreRequest(itemType: itemType))
            }
            return (counts.values.reduce(0, +), counts)
        }

        /// Records what the source counted beside what was read: by type when the source counts
        /// by type and items keep their source type's (reshaped) name; else the totals must match
        /// here, since a transform may give an item any type.
        private mutating func takeCounts(_ counted: (total: Int, perType: [String: Int]?)) throws {
            let retypes = transform.map { $0.transform != nil || $0.decode != nil } ?? false
            guard let perType = counted.perType, !retypes else {
                let read = stats.values.reduce(0) { $0 + $1.read }
                guard read != counted.total else { return }
                throw DataStoreError(
                    .corrupt, "verification failed: the source holds \(counted.total) item(s) of the types to copy, but "
                        + "\(read) were read from it and copied; \(targetLocation) was not verified")
            }
            for itemType in stats.keys { stats[itemType]?.counted = 0 }
            for (sourceType, count) in perType {
                let itemType = transform?.reshape.targetType(of: sourceType) ?? sourceType
                guard count > 0 || stats[itemType] != nil else { continue }
                var typeStats = stats[itemType] ?? MigrationSourceStats(itemType: itemType)
                typeStats.counted = (typeStats.counted ?? 0) + count
                stats[itemType] = typeStats
            }
        }

        private mutating func take(_ row: ItemRow) throws {
            guard transform != nil else { return try takeShaped(row) }
            if let shaped = try transform?.apply(row) { return try takeShaped(shaped) }
            if !hasCurrent || row.itemType != currentType { switchType(to: row.itemType) }
            currentStats.read += 1
            currentStats.omitted += 1
        }

        private mutating func takeShaped(_ row: ItemRow) throws {
            try check(row)
            if !hasCurrent || row.itemType != currentType { switchType(to: row.itemType) }
            currentStats.read += 1
            currentStats.bytes += ItemSize.bytes(of: row)
            if checksums {
                if rowLocatorTypes.isEmpty || !rowLocatorTypes.contains(row.itemType) {
                    currentStats.checksum.add(row)
                } else {
                    currentStats.checksum.addIgnoringIdentifier(row)
                }
            }
            if currentChunk.isEmpty { currentChunk.reserveCapacity(MigrationReader.chunkSize) }
            currentChunk.append(row)
            if currentChunk.count >= MigrationReader.chunkSize {
                try cancellation?.check()
                try send(.items(itemType: currentType, currentChunk))
                currentChunk = []
            }
        }

        /// Puts the current type's chunk and counts back and takes out those of `itemType`.
        private mutating func switchType(to itemType: String) {
            putBackCurrent()
            currentType = itemType
            hasCurrent = true
            currentChunk = chunks.removeValue(forKey: itemType) ?? []
            currentStats = stats.removeValue(forKey: itemType) ?? MigrationSourceStats(itemType: itemType)
        }

        private mutating func putBackCurrent() {
            guard hasCurrent else { return }
            chunks[currentType] = currentChunk
            stats[currentType] = currentStats
            currentChunk = []
            hasCurrent = false
        }

        private func send(_ message: MigrationPipe.Message) throws {
            guard pipe.send(message) else { throw MigrationPipeClosed() }
        }

        /// The name rules every store applies (``NameRules``), checked once per type and per shape.
        private mutating func check(_ row: ItemRow) throws {
            try BlockContext.locating(targetLocation) {
                if row.itemType != lastType || lastType.isEmpty {
                    if !checkedTypes.contains(row.itemType) {
                        try NameRules.validateItemType(row.itemType)
                        checkedTypes.insert(row.itemType)
                    }
                    lastType = row.itemType
                }
                if row.names !== lastShape {
                    let shape = ObjectIdentifier(row.names)
                    if checkedShapes[shape] == nil {
                        for name in row.names.names { try NameRules.validateAttribute(name, of: row.itemType) }
                        checkedShapes[shape] = row.names
                    }
                    lastShape = row.names
                }
                for value in row.values {
                    switch value {
                    case .array, .object:
                        if value.nestingDepth > BinaryValueCoding.maximumDepth {
                            try NameRules.validate(row.item)
                        }
                    default:
                        continue
                    }
                }
            }
        }
    }
}

/// Thrown inside the reader's read block when the writer has stopped listening.
struct MigrationPipeClosed: Error {}
