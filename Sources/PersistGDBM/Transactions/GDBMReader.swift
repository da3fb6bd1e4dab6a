import Foundation
import Persist

/// The reads of one block against one GDBM file: the engine's `StoreReader`.
///
/// A read block's reader sees the file as committed (the open file's snapshot lock keeps commits
/// out while the block runs); ``GDBMWriter`` overrides the two primitives, ``scan(prefix:withRecords:_:)``
/// and ``withRecord(_:_:)``, to merge a write block's buffered changes.
class GDBMReader: StoreReader {
    let openFile: GDBMOpenFile
    var codec: GDBMLayoutCodec { openFile.codec }

    init(openFile: GDBMOpenFile) {
        self.openFile = openFile
    }

    // MARK: Primitives

    /// Calls `visit` with each item key starting with `prefix` (and its record when `withRecords`)
    /// until it returns `false`. Keys for which `skip` is true are passed over before any fetch.
    final func scanFile(
        prefix: [UInt8], withRecords: Bool, skip: ((UnsafeRawBufferPointer) -> Bool)? = nil,
        _ visit: (UnsafeRawBufferPointer, UnsafeRawBufferPointer?) throws -> Bool
    ) throws {
        let handle = openFile.handle
        let codec = codec
        try prefix.withUnsafeBytes { prefixBytes in
            try handle.forEachKey { key in
                guard key.count >= prefixBytes.count, codec.isItemKey(key),
                      NativeRecordCodec.compare(UnsafeRawBufferPointer(rebasing: key[..<prefixBytes.count]), prefixBytes) == 0
                else { return true }
                if let skip, skip(key) { return true }
                guard withRecords else { return try visit(key, nil) }
                return try handle.fetch(key) { record in try visit(key, record) } ?? true
            }
        }
    }

    /// Calls `visit` with each item key starting with `prefix` and, when `withRecords`, its record.
    func scan(prefix: [UInt8], withRecords: Bool,
              _ visit: (UnsafeRawBufferPointer, UnsafeRawBufferPointer?) throws -> Bool) throws {
        try scanFile(prefix: prefix, withRecords: withRecords, visit)
    }

    /// Whether the block sees an item key starting with `prefix`; stops at the first.
    func holdsKey(withPrefix prefix: [UInt8]) throws -> Bool {
        var found = false
        try scan(prefix: prefix, withRecords: false) { _, _ in
            found = true
            return false
        }
        return found
    }

    /// Calls `body` with the record stored under `key`; `nil` when there is none.
    func withRecord<R>(_ key: [UInt8], _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R? {
        try key.withUnsafeBytes { keyBytes in try openFile.handle.fetch(keyBytes, body) }
    }

    /// The indexes the block sees.
    var indexCatalog: GDBMIndexCatalog { openFile.catalog }

    /// The relations the block sees (the committed ones, for a read block).
    var declaredRelations: [DataStoreRelation] { openFile.relations }

    /// The identifiers (as key suffixes) the entry of index `number` for `tuple` lists.
    func entryIdentifiers(_ number: UInt64, tuple: [UInt8]) throws -> [[UInt8]] {
        try fileEntryIdentifiers(number, tuple: tuple)
    }

    /// The identifiers the file's entry of index `number` for `tuple` lists.
    final func fileEntryIdentifiers(_ number: UInt64, tuple: [UInt8]) throws -> [[UInt8]] {
        try fileEntryIdentifiers(atKey: GDBMIndexFormat.entryKey(number, tuple: tuple))
    }

    /// The identifiers the file's index entry under `key` lists.
    ///
    /// - Throws: `corrupt` naming the file and the key when the entry does not parse.
    final func fileEntryIdentifiers(atKey key: [UInt8]) throws -> [[UInt8]] {
        try key.withUnsafeBytes { keyBytes in
            try openFile.handle.fetch(keyBytes) { record in
                do {
                    return try GDBMIndexFormat.decodeEntry(record)
                } catch var error as DataStoreError {
                    error.message = "an index entry of \(openFile.path) (key \(NativeKeyCodec.describe(keyBytes))) cannot be "
                        + "read: \(error.message)"
                    error.path = openFile.path
                    throw error
                }
            }
        } ?? []
    }

    /// Visits the key and (when `withRecords`) the record of each item the request could select:
    /// the items listed by an index entry when an index answers the request's equality filter,
    /// otherwise every item of the type.
    final func candidates(
        _ request: DataStoreRequest, prefix: [UInt8], withRecords: Bool,
        _ visit: (UnsafeRawBufferPointer, UnsafeRawBufferPointer?) throws -> Bool
    ) throws {
        guard let identifiers = try indexedIdentifiers(request) else {
            return try scan(prefix: prefix, withRecords: withRecords, visit)
        }
        for identifier in identifiers {
            let key = prefix + identifier
            let goOn = try withRecord(key) { record in
                try key.withUnsafeBytes { keyBytes in try visit(keyBytes, withRecords ? record : nil) }
            }
            if goOn == false { return }
        }
    }

    // MARK: StoreReader

    func item(ofType itemType: String, id: ItemID) throws -> Item? {
        guard let key = codec.key(for: itemType, id: id) else { return nil }
        return try withRecord(key) { record in
            try openFile.decoding(reference: ItemReference(itemType: itemType, id: id)) {
                try codec.decodeItem(itemType: itemType, id: id, record: record)
            }
        }
    }

    func forEachItem(matching request: DataStoreRequest, _ body: (Item) throws -> Bool) throws {
        let codec = codec
        try forEachRecord(matching: request) { id, record in
            let item = try openFile.decoding(reference: ItemReference(itemType: request.itemType, id: id)) {
                try codec.decodeItem(itemType: request.itemType, id: id, record: record)
            }
            return try body(item)
        }
    }

    /// Calls `body` with the identifier and record of each item the request selects, in the
    /// request's order, honouring offset and limit, until it returns `false`. The record is valid
    /// only during the call.
    func forEachRecord(matching request: DataStoreRequest, _ body: (ItemID, UnsafeRawBufferPointer) throws -> Bool) throws {
        guard let prefix = codec.prefix(for: request.itemType), request.limit != 0 else { return }
        if request.ordering == .unspecified {
            try streamUnordered(request, prefix: prefix, body)
        } else {
            try streamSorted(request, prefix: prefix, body)
        }
    }

    /// In GDBM's key order, in constant memory.
    private func streamUnordered(
        _ request: DataStoreRequest, prefix: [UInt8], _ body: (ItemID, UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        let codec = codec
        var skipped = 0
        var delivered = 0
        try candidates(request, prefix: prefix, withRecords: true) { key, record in
            guard let record else { return true }
            let id: ItemID? = try openFile.decoding(key: key) {
                guard try GDBMRequestEvaluator.matches(request.filter, record, codec: codec) else { return nil }
                if skipped < request.offset {
                    skipped += 1
                    return nil
                }
                return try codec.decodeID(key, prefixLength: prefix.count)
            }
            guard let id else { return true }
            guard try body(id, record) else { return false }
            delivered += 1
            return request.limit.map { delivered < $0 } ?? true
        }
    }

    /// Collects the matches (keeping at most `offset + limit` of them), sorts, then decodes the window.
    private func streamSorted(
        _ request: DataStoreRequest, prefix: [UInt8], _ body: (ItemID, UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        let codec = codec
        let sortKeys = GDBMRequestEvaluator.sortKeys(of: request)
        let bound = GDBMRequestEvaluator.bound(of: request)
        var entries: [GDBMRequestEvaluator.SortEntry] = []
        try candidates(request, prefix: prefix, withRecords: true) { key, record in
            guard let record else { return true }
            try openFile.decoding(key: key) {
                guard try GDBMRequestEvaluator.matches(request.filter, record, codec: codec) else { return }
                if request.filter == nil && !sortKeys.isEmpty { try codec.validate(record) }
                var attributes: [String: Value] = [:]
                for name in sortKeys { attributes[name] = try codec.lookup(name, in: record) }
                let id = try codec.decodeID(key, prefixLength: prefix.count)
                entries.append(GDBMRequestEvaluator.SortEntry(probe: Item(itemType: request.itemType, id: id, attributes: attributes),
                                                   record: [UInt8](record)))
            }
            // Saturating: a bound near Int.max (limit: Int.max) never trims, and never overflows.
            if let bound, entries.count >= max(bound.multipliedReportingOverflow(by: 2).overflow ? Int.max : 2 * bound, 256) {
                GDBMRequestEvaluator.sortAndTrim(&entries, request, bound: bound)
            }
            return true
        }
        GDBMRequestEvaluator.sortAndTrim(&entries, request, bound: bound)
        for entry in entries.dropFirst(request.offset) {
            guard try entry.record.withUnsafeBytes({ record in try body(entry.probe.id, record) }) else { return }
        }
    }

    func countItems(matching request: DataStoreRequest) throws -> Int {
        guard let prefix = codec.prefix(for: request.itemType) else { return 0 }
        let codec = codec
        let enough = GDBMRequestEvaluator.bound(of: request)
        var matching = 0
        try candidates(request, prefix: prefix, withRecords: request.filter != nil) { key, record in
            if let record {
                let passes = try openFile.decoding(key: key) { try GDBMRequestEvaluator.matches(request.filter, record, codec: codec) }
                guard passes else { return true }
            }
            matching += 1
            return enough.map { matching < $0 } ?? true
        }
        let available = max(matching - request.offset, 0)
        return request.limit.map { min($0, available) } ?? available
    }

    func itemTypes() throws -> [String] {
        switch codec {
        case .raw(let rawType, _):
            return try holdsKey(withPrefix: []) ? [rawType] : []
        case .native:
            var names: [[UInt8]] = []
            try scan(prefix: [], withRecords: false) { key, _ in
                guard let name = try openFile.decoding(key: key, { try codec.typeName(of: key) }) else { return true }
                if !names.contains(where: { $0.elementsEqual(name) }) { names.append([UInt8](name)) }
                return true
            }
            names.sort(by: ByteOrder.precedes)
            return try names.map { bytes in
                guard let name = bytes.withUnsafeBytes(ByteReader.validUTF8), !bytes.contains(0) else {
                    throw DataStoreError(.corrupt, "a key in \(openFile.path) has a type name that is not valid UTF-8 "
                                            + "or contains NUL: \(bytes.withUnsafeBytes(NativeKeyCodec.describe))",
                                         path: openFile.path)
                }
                return name
            }
        }
    }
}

/// GDBM keys items by the bytes of their type's name: two Unicode spellings are two types, in the
/// file and in every child of the store.
extension GDBMReader {
    var comparesTypeNamesByBytes: Bool { true }
}
