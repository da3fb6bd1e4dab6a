import Dispatch

extension Migration {
    /// Fails before anything is written when the source holds values in columns no item carries
    /// (see ``SchemaDescribingReader/columnsOutsideItems(ofTypes:)``), which the copy would lose.
    func checkNoColumnsOutsideItems(_ chosen: [String]?) throws {
        let columns = try source.read { accessor in
            try accessor.reader.schemaDescribing?.columnsOutsideItems(ofTypes: chosen) ?? []
        }
        guard !columns.isEmpty else { return }
        throw DataStoreError(
            .unsupported,
            "\(source.location) holds values in \(columns.count == 1 ? "a column" : "columns") that cannot be an "
                + "attribute (a column with an empty name, or of a type Persist does not map to values), so a copy "
                + "would lose them: " + columns.joined(separator: ", ") + "; nothing was written. "
                + "Give each such column a name or a type Persist maps (ALTER TABLE … RENAME COLUMN, ALTER COLUMN … "
                + "TYPE text) and copy again, or leave its type out of the copy", path: source.location)
    }

    /// Fails before anything is written when the target already holds any source item.
    func checkNoneExist(
        _ types: [String], chosen: [String]?, transform: MigrationTransform, tracker: inout MigrationProgressTracker,
        cancellation: MigrationCancellation?
    ) throws {
        guard !types.isEmpty else { return }
        tracker.begin(.checking)
        var present: [ItemReference] = []
        var presentCount = 0
        try source.read { reader in
            try target.read { targetReader in
                var pacer = CancellationPacer(cancellation)
                try forEachSourceItem(ofTypes: types, in: reader, chosen: chosen, transform: transform) { item in
                    try pacer.check()
                    if try targetReader.item(ofType: item.itemType, id: item.id) != nil {
                        presentCount += 1
                        if present.count < 10 { present.append(item.reference) }
                    }
                    tracker.advance(item.itemType)
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

    /// Checks that the target, read through `targetReader`, holds exactly what was written, type by type.
    func verify(
        _ copy: inout MigrationCopy, against targetReader: DataStoreReadAccessor, chosen: [String]?,
        transform: MigrationTransform, tracker: inout MigrationProgressTracker, cancellation: MigrationCancellation?
    ) throws {
        for (itemType, typeCopy) in copy.types.sorted(by: { ByteOrder.precedes($0.key, $1.key) }) {
            try cancellation?.check()
            let started = DispatchTime.now().uptimeNanoseconds
            try verifyCount(typeCopy, against: targetReader)
            if typeCopy.targetWasEmpty {
                try verifyWhole(typeCopy, against: targetReader, tracker: &tracker, cancellation: cancellation,
                                locatesRows: copy.descriptions[itemType]?.identifiersAreRowLocators ?? false)
            } else {
                try verifyEach(typeCopy, against: targetReader, chosen: chosen, transform: transform, tracker: &tracker,
                               cancellation: cancellation)
            }
            copy.recordVerification(of: itemType, seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
        }
    }

    /// The source must have held as many items of the type as were read from it: rows a source
    /// counts but does not give (a table its reader leaves out, say) fail the run, never a silent gap.
    private func verifyCount(_ copy: MigrationCopy.TypeCopy, against targetReader: DataStoreReadAccessor) throws {
        guard let source = copy.source, let counted = source.counted, counted != source.read else { return }
        let held = try targetReader.countItems(forRequest: DataStoreRequest(itemType: copy.itemType))
        throw DataStoreError(
            .corrupt,
            "verification failed for \(copy.itemType): the source holds \(counted) item(s) of it, but \(source.read) were "
                + "read and \(target.location) holds \(held)",
            path: target.location)
    }

    /// A type the target held nothing of: it must now hold exactly what was written (without the
    /// identifiers, when they only tell rows apart: `locatesRows`).
    private func verifyWhole(
        _ copy: MigrationCopy.TypeCopy, against targetReader: DataStoreReadAccessor, tracker: inout MigrationProgressTracker,
        cancellation: MigrationCancellation?, locatesRows: Bool
    ) throws {
        var found = ItemChecksum()
        var pacer = CancellationPacer(cancellation)
        try targetReader.checkActiveAndFlushPendingChanges()
        if let rows = targetReader.reader.rowStreaming {
            try rows.forEachRow(ofTypes: [copy.itemType]) { row in
                try pacer.check()
                if locatesRows { found.addIgnoringIdentifier(row) } else { found.add(row) }
                tracker.advance(copy.itemType)
                return true
            }
        } else {
            try targetReader.forEachItem(forRequest: Self.streamRequest(copy.itemType)) { item in
                try pacer.check()
                if locatesRows { found.addIgnoringIdentifier(ItemRow(item)) } else { found.add(item) }
                tracker.advance(copy.itemType)
            }
        }
        let written = copy.writtenChecksum
        guard found == written else {
            throw DataStoreError(
                .corrupt,
                "verification failed for \(copy.itemType): \(copy.written) item(s) were written to \(target.location) "
                    + "(checksum \(written.hex)) but it holds \(found.count) (checksum \(found.hex))",
                path: target.location)
        }
    }

    /// A type the target held items of: every item read from the source and not skipped must be
    /// in the target as it is in the source.
    private func verifyEach(
        _ copy: MigrationCopy.TypeCopy, against targetReader: DataStoreReadAccessor, chosen: [String]?,
        transform: MigrationTransform, tracker: inout MigrationProgressTracker, cancellation: MigrationCancellation?
    ) throws {
        var differing: [ItemReference] = []
        var differingCount = 0
        var pacer = CancellationPacer(cancellation)
        try source.read { reader in
            try forEachSourceItem(ofTypes: [copy.itemType], in: reader, chosen: chosen, transform: transform) { item in
                try pacer.check()
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

extension Migration {
    /// Calls `body` with every item the migration writes whose type (after the reshape and the
    /// transform) is one of `types`, as it writes it: read again from the source, transformed again.
    func forEachSourceItem(
        ofTypes types: [String], in reader: DataStoreReadAccessor, chosen: [String]?, transform: MigrationTransform,
        _ body: (Item) throws -> Void
    ) throws {
        guard transform.isActive else {
            for itemType in types { try reader.forEachItem(forRequest: Self.streamRequest(itemType), body) }
            return
        }
        let wanted = Set(types)
        var transform = transform
        for itemType in try chosen ?? reader.itemTypes() {
            try reader.forEachItem(forRequest: Self.streamRequest(itemType)) { item in
                guard let written = try transform.apply(item), wanted.contains(written.itemType) else { return }
                try body(written)
            }
        }
    }
}
