import Foundation
import Persist

/// The reads and writes of one write block: changes are buffered here, keyed by GDBM key, and
/// reads through the writer see them merged with the file. Nothing touches the file until the
/// open file commits the buffer through the journal.
final class GDBMWriter: GDBMReader, StoreWriter {
    /// A buffered change to one key.
    enum Change {
        case put([UInt8])
        case delete
    }

    /// The block's changes: the last change to each key wins.
    var changes: [[UInt8]: Change] = [:]
    /// Row shapes whose names the bulk path checked, kept alive so that their identities stay unique.
    var checkedShapes: [ObjectIdentifier: AttributeNames] = [:]

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

    private func exists(_ key: [UInt8]) throws -> Bool {
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
        changes[key] = .put(record)
    }

    func save(_ item: Item) throws {
        try openFile.checkWritable()
        let (key, record) = try codec.encode(item, path: openFile.path)
        changes[key] = .put(record)
    }

    func deleteItem(ofType itemType: String, id: ItemID) throws -> Bool {
        try openFile.checkWritable()
        guard let key = codec.key(for: itemType, id: id), try exists(key) else { return false }
        changes[key] = .delete
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
        for key in keys { changes[key] = .delete }
        return keys.count
    }
}
