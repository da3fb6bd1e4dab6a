import Foundation
import Persist

/// The reads and writes of one write block: changes are buffered here, keyed by GDBM key, and
/// reads through the writer see them merged with the file. Nothing touches the file until the
/// open file commits the buffer through the journal.
///
/// In the native layout the writer also keeps the file's indexes up to date: every change to an
/// item of an indexed type moves its identifier between index entries (buffered as additions and
/// removals per entry, merged with the file's entries at commit), and a change that would give
/// two items the values of a unique index is refused before anything is buffered.
final class GDBMWriter: GDBMReader, StoreWriter {
    /// A buffered change to one key.
    enum Change {
        case put([UInt8])
        case delete
    }

    /// The identifiers a block added to and removed from one index entry.
    struct EntryChange {
        var added: Set<[UInt8]> = []
        var removed: Set<[UInt8]> = []
    }

    /// The block's changes: the last change to each key wins.
    var changes: [[UInt8]: Change] = [:]
    /// Row shapes whose names the bulk path checked, kept alive so that their identities stay unique.
    var checkedShapes: [ObjectIdentifier: AttributeNames] = [:]
    /// The indexes as this block sees them.
    private var catalog: GDBMIndexCatalog
    private var catalogChanged = false
    /// Indexes declared in this block: the file holds no entry of theirs yet.
    private var newIndexNumbers: Set<UInt64> = []
    /// Entry key → the identifiers the block added and removed.
    private var entryChanges: [[UInt8]: EntryChange] = [:]
    /// The largest integer identifier the block wrote, by item type.
    var writtenIntegerIDs: [String: Int64] = [:]
    /// Every relation as this block sees them, once it declared one; `nil` until then.
    var blockRelations: [DataStoreRelation]?

    init(openFile: GDBMOpenFile, catalog: GDBMIndexCatalog) {
        self.catalog = catalog
        super.init(openFile: openFile)
    }

    override var indexCatalog: GDBMIndexCatalog { catalog }

    override var declaredRelations: [DataStoreRelation] { blockRelations ?? super.declaredRelations }

    /// The relations to write at commit, when the block declared one.
    var changedRelations: [DataStoreRelation]? { blockRelations }

    /// The catalog to write at commit, when the block declared an index.
    var changedCatalog: GDBMIndexCatalog? { catalogChanged ? catalog : nil }

    override func scan(prefix: [UInt8], withRecords: Bool,
                       _ visit: (UnsafeRawBufferPointer, UnsafeRawBufferPointer?) throws -> Bool) throws {
        guard !changes.isEmpty else { return try scanFile(prefix: prefix, withRecords: withRecords, visit) }
        let changes = changes
        var keepGoing = true
        try scanFile(prefix: prefix, withRecords: withRecords, skip: { changes[[UInt8]($0)] != nil }) { key, record in
            keepGoing = try visit(key, record)
            return keepGoing
        }
        guard keepGoing else { return }
        let codec = codec
        for (key, change) in changes where key.starts(with: prefix) {
            guard case .put(let record) = change else { continue }
            let goOn = try key.withUnsafeBytes { keyBytes -> Bool in
                guard codec.isItemKey(keyBytes) else { return true }
                return try record.withUnsafeBytes { recordBytes in try visit(keyBytes, withRecords ? recordBytes : nil) }
            }
            if !goOn { return }
        }
    }

    override func withRecord<R>(_ key: [UInt8], _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R? {
        switch changes[key] {
        case .put(let record): return try record.withUnsafeBytes(body)
        case .delete: return nil
        case nil: return try super.withRecord(key, body)
        }
    }

    override func entryIdentifiers(_ number: UInt64, tuple: [UInt8]) throws -> [[UInt8]] {
        let key = GDBMIndexFormat.entryKey(number, tuple: tuple)
        let stored = newIndexNumbers.contains(number) ? [] : try fileEntryIdentifiers(number, tuple: tuple)
        guard let change = entryChanges[key] else { return stored }
        var identifiers = Set(stored)
        identifiers.subtract(change.removed)
        identifiers.formUnion(change.added)
        return identifiers.sorted(by: ByteOrder.precedes)
    }

    func exists(_ key: [UInt8]) throws -> Bool {
        switch changes[key] {
        case .put: return true
        case .delete: return false
        case nil: return try key.withUnsafeBytes { try openFile.handle.contains($0) }
        }
    }

    // MARK: StoreWriter

    func insert(_ item: Item) throws {
        try openFile.checkWritable()
        let (key, record) = try codec.encode(item, path: openFile.path)
        if try exists(key) {
            throw DataStoreError(.alreadyExists, "\(item.reference) already exists in \(openFile.path)",
                                 path: openFile.path, items: [item.reference])
        }
        try put(key, record, item)
    }

    func save(_ item: Item) throws {
        try openFile.checkWritable()
        let (key, record) = try codec.encode(item, path: openFile.path)
        try put(key, record, item)
    }

    func deleteItem(ofType itemType: String, id: ItemID) throws -> Bool {
        try openFile.checkWritable()
        guard let key = codec.key(for: itemType, id: id), try exists(key) else { return false }
        try remove(key, itemType: itemType)
        return true
    }

    func deleteAllItems(ofType itemType: String) throws -> Int {
        try openFile.checkWritable()
        guard let prefix = codec.prefix(for: itemType) else { return 0 }
        var keys: [[UInt8]] = []
        try scan(prefix: prefix, withRecords: false) { key, _ in
            keys.append([UInt8](key))
            return true
        }
        for key in keys { try remove(key, itemType: itemType) }
        return keys.count
    }

    /// In the native layout the file keeps the indexes and this writer refuses violating writes.
    var enforcesUniqueIndexes: Bool {
        if case .native = codec { return true }
        return false
    }

    // MARK: Buffering changes

    /// Buffers `record` under `key`, moving the item between index entries; refuses it, changing
    /// nothing, when another item holds its values of a unique index.
    private func put(_ key: [UInt8], _ record: [UInt8], _ item: Item) throws {
        let definitions = catalog.definitions(ofType: item.itemType)
        if !definitions.isEmpty, case .native = codec {
            let identifier = Array(key[NativeKeyCodec.prefix(for: item.itemType).count...])
            let old = try withRecord(key) { [UInt8]($0) }
            var moves: [(number: UInt64, from: [UInt8]?, to: [UInt8]?)] = []
            for definition in definitions {
                let from = try old.flatMap { old in
                    try old.withUnsafeBytes { bytes in
                        try openFile.decoding(reference: item.reference) { try tuple(of: bytes, for: definition.index) }
                    }
                }
                let to = IndexKey.key(of: item, attributes: definition.index.attributes)
                guard from != to else { continue }
                if definition.index.isUnique, let to,
                   let holder = try entryIdentifiers(definition.number, tuple: to).first(where: { $0 != identifier }) {
                    let other = try holder.withUnsafeBytes { try NativeKeyCodec.decodeID($0, from: 0) }
                    throw UniqueIndexes.violation(
                        definition.index, [item.reference, ItemReference(itemType: item.itemType, id: other)],
                        values: UniqueIndexes.values(of: item, for: definition.index)
                    ).located(openFile.path)
                }
                moves.append((definition.number, from, to))
            }
            for move in moves {
                if let from = move.from { moveOut(identifier, GDBMIndexFormat.entryKey(move.number, tuple: from)) }
                if let to = move.to { moveIn(identifier, GDBMIndexFormat.entryKey(move.number, tuple: to)) }
            }
        }
        putRecord(key, record, itemType: item.itemType, id: item.id)
    }

    /// Buffers `record` under `key` once its index entries are taken care of (or its type has
    /// none), noting the largest integer identifier written.
    func putRecord(_ key: [UInt8], _ record: [UInt8], itemType: String, id: ItemID) {
        changes[key] = .put(record)
        if case .int(let id) = id { writtenIntegerIDs[itemType] = max(writtenIntegerIDs[itemType] ?? id, id) }
    }

    /// Whether writes of `itemType` move the items between index entries.
    func hasIndexes(ofType itemType: String) -> Bool {
        !catalog.definitions(ofType: itemType).isEmpty
    }

    /// Buffers the deletion of `key`, taking the item out of its index entries.
    private func remove(_ key: [UInt8], itemType: String) throws {
        let definitions = catalog.definitions(ofType: itemType)
        if !definitions.isEmpty, case .native = codec, let old = try withRecord(key, { [UInt8]($0) }) {
            let identifier = Array(key[NativeKeyCodec.prefix(for: itemType).count...])
            try old.withUnsafeBytes { bytes in
                try key.withUnsafeBytes { keyBytes in
                    for definition in definitions {
                        if let from = try openFile.decoding(key: keyBytes, { try tuple(of: bytes, for: definition.index) }) {
                            moveOut(identifier, GDBMIndexFormat.entryKey(definition.number, tuple: from))
                        }
                    }
                }
            }
        }
        changes[key] = .delete
    }

    private func moveIn(_ identifier: [UInt8], _ entry: [UInt8]) {
        entryChanges[entry, default: EntryChange()].removed.remove(identifier)
        entryChanges[entry, default: EntryChange()].added.insert(identifier)
    }

    private func moveOut(_ identifier: [UInt8], _ entry: [UInt8]) {
        entryChanges[entry, default: EntryChange()].added.remove(identifier)
        entryChanges[entry, default: EntryChange()].removed.insert(identifier)
    }

    // MARK: Indexes and identifiers

    /// Declares an index in the native layout: every item of the type is entered, in this block,
    /// so the index is journaled and committed with it. `nil` in the raw layout.
    func ensureIndex(_ index: DataStoreIndex) throws -> Bool? {
        guard case .native = codec else { return nil }
        try openFile.checkWritable()
        let existing = catalog.definitions(ofType: index.itemType)
        if existing.contains(where: { $0.index.satisfies(attributes: index.attributes, unique: index.isUnique) }) { return false }
        let entries = try itemEntries(of: index)
        if index.isUnique {
            var shared: [[ItemReference]] = []
            for group in entries.values where group.count > 1 {
                shared.append(try group.map { identifier in
                    ItemReference(itemType: index.itemType, id: try identifier.withUnsafeBytes { try NativeKeyCodec.decodeID($0, from: 0) })
                }.sorted { $0.id < $1.id })
            }
            if let first = shared.min(by: { $0[0].id < $1[0].id }) {
                throw UniqueIndexes.existingDuplicates(index, first).located(openFile.path)
            }
        }
        let number = catalog.nextNumber
        catalog.definitions.append(GDBMIndexDefinition(number: number, index: index))
        catalogChanged = true
        newIndexNumbers.insert(number)
        for (tuple, identifiers) in entries {
            entryChanges[GDBMIndexFormat.entryKey(number, tuple: tuple)] = EntryChange(added: Set(identifiers))
        }
        return true
    }

    /// The entries `index` should have: the identifiers of the type's items, by their values.
    private func itemEntries(of index: DataStoreIndex) throws -> [[UInt8]: [[UInt8]]] {
        let prefix = NativeKeyCodec.prefix(for: index.itemType)
        var entries: [[UInt8]: [[UInt8]]] = [:]
        try scan(prefix: prefix, withRecords: true) { key, record in
            guard let record else { return true }
            if let tuple = try openFile.decoding(key: key, { try tuple(of: record, for: index) }) {
                entries[tuple, default: []].append(Array(key[prefix.count...]))
            }
            return true
        }
        return entries
    }

    /// Rebuilds every declared index's entries from the items, in this block: after GDBM's
    /// recovery, which may have lost records (an entry, or an item an entry names).
    ///
    /// - Returns: the unique indexes whose items now share values (recovery kept two versions
    ///   of a change, say); their entries hold every such item, and later writes are checked
    ///   against them as always.
    func rebuildIndexes() throws -> [DataStoreIndex] {
        guard case .native = codec else { return [] }
        try openFile.checkWritable()
        // Every entry the file holds, found in one pass, is deleted unless the items give it again:
        // its index's number counts as new, so its identifiers start from none, and any removal
        // makes the block write the key.
        var held: [[UInt8]] = []
        try openFile.handle.forEachKey { key in
            if key.starts(with: GDBMIndexFormat.entryMarker) { held.append(Array(key)) }
            return true
        }
        for key in held {
            newIndexNumbers.insert(try GDBMIndexFormat.number(ofEntryKey: key))
            entryChanges[key] = EntryChange(removed: [key])
        }
        var broken: [DataStoreIndex] = []
        for definition in catalog.definitions {
            let entries = try itemEntries(of: definition.index)
            if definition.index.isUnique, entries.values.contains(where: { $0.count > 1 }) { broken.append(definition.index) }
            newIndexNumbers.insert(definition.number)
            for (tuple, identifiers) in entries {
                entryChanges[GDBMIndexFormat.entryKey(definition.number, tuple: tuple)] = EntryChange(added: Set(identifiers))
            }
        }
        return broken
    }

    /// The journal entries that bring the file's index entries up to date with the block.
    func indexJournalEntries() throws -> [GDBMJournalEntry] {
        var entries: [GDBMJournalEntry] = []
        for (key, change) in entryChanges where !change.added.isEmpty || !change.removed.isEmpty {
            let number = try GDBMIndexFormat.number(ofEntryKey: key)
            var identifiers: Set<[UInt8]> = []
            if !newIndexNumbers.contains(number) {
                identifiers = Set(try fileEntryIdentifiers(atKey: key))
            }
            identifiers.subtract(change.removed)
            identifiers.formUnion(change.added)
            if identifiers.isEmpty {
                entries.append(.delete(key: key))
            } else {
                entries.append(.store(key: key, value: GDBMIndexFormat.encodeEntry(identifiers.sorted(by: ByteOrder.precedes))))
            }
        }
        return entries
    }

    /// Saves each selected item with `values` applied, all or nothing: when one save is refused (by
    /// a unique index), the block keeps none of the others, as one SQL `UPDATE` would.
    func updateItems(matching request: DataStoreRequest, setting values: [String: Value]) throws -> Int {
        let selected = try items(matching: request)
        let before = (changes, entryChanges, writtenIntegerIDs)
        do {
            for item in selected { try save(item.setting(values)) }
        } catch {
            (changes, entryChanges, writtenIntegerIDs) = before
            throw error
        }
        return selected.count
    }

    /// One above every integer identifier the type has, had while this store held the file, or
    /// was given in this block: no scan after the first, since no other process can write the
    /// file while this store holds its write lock.
    func nextIntegerID(ofType itemType: String) throws -> Int64 {
        let bound: Int64?
        if let known = openFile.integerIDBound(ofType: itemType) {
            bound = known.largest
        } else {
            // The committed file's identifiers, not this block's view of them: the block may yet
            // roll back the deletes it made, and the bound outlives it.
            bound = try GDBMReader(openFile: openFile).largestIntegerID(ofType: itemType)
            openFile.rememberIntegerIDBound(GDBMOpenFile.IntegerIDBound(largest: bound), ofType: itemType)
        }
        let candidates = [bound, openFile.largestWrittenIntegerID(ofType: itemType), writtenIntegerIDs[itemType]]
        return try IntegerIDs.after(candidates.compactMap { $0 }.max(), itemType: itemType)
    }
}

extension DataStoreError {
    /// The error with the file's path, unless it has one.
    func located(_ path: String) -> DataStoreError {
        guard self.path == nil else { return self }
        var located = self
        located.path = path
        located.message += " (file \(path))"
        return located
    }
}
