import Persist

/// Typed writes encode entity rows straight into records of the native layout; the raw layout
/// takes the general path, which says why it cannot hold them.
extension GDBMWriter: EntityRowWriting {
    func entityRowSink(forType itemType: String) -> any EntityRowSink {
        guard case .native = codec else { return GeneralEntitySink(writer: self) }
        return GDBMEntitySink(writer: self, prefix: NativeKeyCodec.prefix(for: itemType))
    }
}

/// Buffers the records of one entity type's rows in a write block, as ``GDBMWriter`` buffers items.
final class GDBMEntitySink: EntityRowSink {
    private let writer: GDBMWriter
    /// The key prefix of the item type.
    private let prefix: [UInt8]
    private var scratch: [UInt8] = []

    init(writer: GDBMWriter, prefix: [UInt8]) {
        self.writer = writer
        self.prefix = prefix
    }

    private func encode(_ row: EntityRow) throws -> (key: [UInt8], record: [UInt8]) {
        try writer.openFile.checkWritable()
        var record: [UInt8] = []
        NativeRecordCodec.encode(row, into: &record, scratch: &scratch)
        return (NativeKeyCodec.key(prefix: prefix, id: row.id), record)
    }

    /// Buffers the row's record; an item type with indexes takes the general path, which moves
    /// the item between index entries and refuses unique violations.
    private func put(_ row: EntityRow, _ key: [UInt8], _ record: [UInt8], general: () throws -> Void) throws {
        if writer.hasIndexes(ofType: row.plan.itemType) { return try general() }
        writer.putRecord(key, record, itemType: row.plan.itemType, id: row.id)
    }

    func insert(_ row: EntityRow) throws {
        let (key, record) = try encode(row)
        // The general path refuses it, and says why.
        if try writer.exists(key) { return try writer.insert(row.item()) }
        try put(row, key, record) { try writer.insert(row.item()) }
    }

    func save(_ row: EntityRow) throws {
        let (key, record) = try encode(row)
        try put(row, key, record) { try writer.save(row.item()) }
    }

    func update(_ row: EntityRow) throws -> Bool {
        let (key, record) = try encode(row)
        // Reads the stored record, as the general path does, so a damaged one is reported.
        guard try writer.item(ofType: row.plan.itemType, id: row.id) != nil else { return false }
        try put(row, key, record) { try writer.save(row.item()) }
        return true
    }
}
