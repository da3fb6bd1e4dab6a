import Persist

/// The bulk-load path of a write block: records are encoded straight from rows (no dictionary per
/// item) and, since the types are new to the file, stored without looking each key up first. In a
/// private file being built (``GDBMDataStore/buildingPrivateFile(at:options:)``) they are stored at once,
/// with `GDBM_INSERT` catching duplicates; otherwise they are buffered and committed through the
/// journal like any block.
extension GDBMWriter: BulkLoadWriter {
    func bulkInsert(_ rows: ArraySlice<ItemRow>) throws {
        try openFile.checkWritable()
        var direct: [(key: [UInt8], record: [UInt8], reference: ItemReference)] = []
        if openFile.buildsPrivateFile { direct.reserveCapacity(rows.count) }
        var scratch: [UInt8] = []
        var indexedTypes: [String: Bool] = [:]
        for row in rows {
            // A type with indexes keeps them through the general path, which maintains them.
            let indexed = indexedTypes[row.itemType] ?? !indexCatalog.definitions(ofType: row.itemType).isEmpty
            indexedTypes[row.itemType] = indexed
            if indexed, case .native = codec {
                try insert(row.item)
                continue
            }
            let (key, record) = try encode(row, scratch: &scratch)
            if case .int(let id) = row.id { writtenIntegerIDs[row.itemType] = max(writtenIntegerIDs[row.itemType] ?? id, id) }
            if openFile.buildsPrivateFile {
                direct.append((key, record, row.reference))
            } else if case .put = changes.updateValue(.put(record), forKey: key) {
                throw DataStoreError(.alreadyExists, "\(row.reference) already exists in \(openFile.path)",
                                     path: openFile.path, items: [row.reference])
            }
        }
        if !direct.isEmpty { try openFile.storeNew(direct) }
    }

    /// The key and record of a row, in the file's layout.
    private func encode(_ row: ItemRow, scratch: inout [UInt8]) throws -> (key: [UInt8], record: [UInt8]) {
        switch codec {
        case .native:
            try checkNames(row)
            var record: [UInt8] = []
            NativeRecordCodec.encode(row, into: &record, scratch: &scratch)
            return (NativeKeyCodec.key(itemType: row.itemType, id: row.id), record)
        case .raw(let rawType, let attribute):
            if row.itemType == rawType, case .bytes(let key) = row.id, row.names.names == [attribute],
               case .bytes(let value)? = row.values.first {
                return (key, value)
            }
            // The general encoder says precisely why the raw layout cannot hold this item.
            return try codec.encode(row.item, path: openFile.path)
        }
    }

    /// The native layout's name rules, checked once per shape.
    private func checkNames(_ row: ItemRow) throws {
        let shape = ObjectIdentifier(row.names)
        guard checkedShapes[shape] == nil else { return }
        for name in row.names.names where name.isEmpty || name.utf8.contains(0) {
            throw DataStoreError(.invalidArgument, "the attribute name \(String(reflecting: name)) of \(row.reference) "
                                    + "is empty or contains NUL", path: openFile.path, items: [row.reference])
        }
        checkedShapes[shape] = row.names
    }

    func finishBulkLoad() throws {}

    /// A private file takes bulk inserts at once; a journaled file only when the block commits.
    var rollsBackBulkInserts: Bool { !openFile.buildsPrivateFile }
}
