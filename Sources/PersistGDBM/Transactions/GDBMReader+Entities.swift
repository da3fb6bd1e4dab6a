import Persist

/// Typed reads decode entities straight from records of the native layout; the raw layout, whose
/// records are bytes, takes the general path.
extension GDBMReader: EntityRowReading {
    func forEachEntityRow(matching request: DataStoreRequest, _ body: (any EntityRowSource) throws -> Bool) throws {
        guard case .native = codec else {
            return try GeneralEntityRows(reader: self).forEachEntityRow(matching: request, body)
        }
        let source = GDBMRecordSource(openFile: openFile, itemType: request.itemType)
        try forEachRecord(matching: request) { id, record in
            source.position(id: id, record: record)
            return try body(source)
        }
    }

    func withEntityRow<T>(ofType itemType: String, id: ItemID, _ body: (any EntityRowSource) throws -> T) throws -> T? {
        guard case .native = codec else {
            return try GeneralEntityRows(reader: self).withEntityRow(ofType: itemType, id: id, body)
        }
        guard let key = codec.key(for: itemType, id: id) else { return nil }
        let source = GDBMRecordSource(openFile: openFile, itemType: itemType)
        return try withRecord(key) { record in
            source.position(id: id, record: record)
            return try body(source)
        }
    }
}

/// One native record as a row. The record's bytes are valid only while the reader's callback
/// runs, which is as long as the source is used.
final class GDBMRecordSource: EntityRowSource {
    private let openFile: GDBMOpenFile
    private let itemType: String
    private var id: ItemID = .int(0)
    private var record = UnsafeRawBufferPointer(start: nil, count: 0)
    /// The plan resolved last, and its attribute names as records are walked with them.
    private var names: (plan: EntityPlan, names: EntityRecordNames)?

    init(openFile: GDBMOpenFile, itemType: String) {
        self.openFile = openFile
        self.itemType = itemType
    }

    /// The current record's values by slot of `filled`'s plan, filled on first use.
    private var filled: (plan: EntityPlan, values: [Value])?

    func position(id: ItemID, record: UnsafeRawBufferPointer) {
        self.id = id
        self.record = record
        filled = nil
    }

    func columns(for plan: EntityPlan) -> any EntityRowColumns {
        SlotLookupColumns { [self] slot in try value(atSlot: slot, of: plan) }
    }

    private var reference: ItemReference { ItemReference(itemType: itemType, id: id) }

    func identifier() throws -> ItemID { id }

    func fill(_ values: UnsafeMutableBufferPointer<Value>, for plan: EntityPlan) throws -> Bool {
        let recordNames: EntityRecordNames
        if let names, names.plan === plan {
            recordNames = names.names
        } else {
            recordNames = EntityRecordNames(plan: plan)
            names = (plan, recordNames)
        }
        let record = record
        return try openFile.decoding(reference: reference) {
            try NativeRecordCodec.fill(values, names: recordNames, from: record)
        }
    }

    /// The value in `slot` of `plan` in the current record, all of whose values are decoded at
    /// the first such call, by walking the record once.
    func value(atSlot slot: Int, of plan: EntityPlan) throws -> Value {
        if let filled, filled.plan === plan { return filled.values[slot] }
        return try values(of: plan)[slot]
    }

    /// The current record's values by slot of `plan`, decoded at the first call for the record.
    private func values(of plan: EntityPlan) throws -> [Value] {
        if let filled, filled.plan === plan { return filled.values }
        var values = [Value](repeating: .null, count: plan.names.count)
        _ = try values.withUnsafeMutableBufferPointer { try fill($0, for: plan) }
        filled = (plan, values)
        return values
    }

    func value(named name: String) throws -> Value? {
        try item().attributes[name]
    }

    /// Decodes the record when no slot was asked for (filling checks every entry, those outside
    /// the plan included).
    func checkUnread(_ read: UInt64, for plan: EntityPlan) throws {
        _ = try values(of: plan)
    }

    func item() throws -> Item {
        let record = record
        return try openFile.decoding(reference: reference) {
            Item(itemType: itemType, id: id, attributes: try NativeRecordCodec.decode(record))
        }
    }
}
