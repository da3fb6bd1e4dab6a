import Persist

/// Records of entity rows, written and read in the plan's byte order of attribute names, which is
/// the record's own order: no dictionary is built and no name is hashed.
extension NativeRecordCodec {
    /// Appends the record of a row: the very bytes ``encode(_:into:)`` writes for the row's item.
    static func encode(_ row: EntityRow, into buffer: inout [UInt8], scratch: inout [UInt8]) {
        buffer.append(version)
        let slots = row.plan.attributeSlotsInByteOrder
        var count = 0
        for slot in slots where !row.values[slot].isNull { count += 1 }
        BinaryValueCoding.appendVarint(UInt64(count), to: &buffer)
        for slot in slots where !row.values[slot].isNull {
            appendEntry(row.plan.names[slot], row.values[slot], to: &buffer, scratch: &scratch)
        }
    }

    /// Puts the record's value of each attribute slot of a plan into `values` (`.null` where the
    /// record has none), walking the record's names and the plan's, both in byte order, side by
    /// side. Checks and decodes every entry, as ``decode(_:)`` does. An entry whose name is another
    /// Unicode spelling of a slot's name (`"e\u{301}"` for `"\u{E9}"`) is that slot's value, as in
    /// the item ``decode(_:)`` makes, whose dictionary takes the two for one name (the entry later
    /// in the record wins there and here).
    ///
    /// - Returns: whether the record has attributes the plan has no slot for.
    static func fill(
        _ values: UnsafeMutableBufferPointer<Value>, names: EntityRecordNames, from record: UnsafeRawBufferPointer
    ) throws -> Bool {
        let ordered = names.ordered
        for slot in names.slots { values[slot] = .null }
        var next = 0
        var hasOthers = false
        try forEachEntry(record) { name, value in
            let nameBytes = UnsafeRawBufferPointer(rebasing: record[name])
            var order = 1
            while next < ordered.count {
                order = ordered[next].bytes.withUnsafeBytes { compare($0, nameBytes) }
                if order >= 0 { break }
                next += 1
            }
            if order == 0 {
                values[ordered[next].slot] = try decodeValue(record, value)
                next += 1
            } else {
                let text = try self.name(record, name)
                let decoded = try decodeValue(record, value)
                if let slot = names.slot(spelledAs: text, bytes: nameBytes) {
                    values[slot] = decoded
                } else {
                    hasOthers = true
                }
            }
        }
        return hasOthers
    }
}

/// The attribute names of one entity plan as ``NativeRecordCodec/fill(_:names:from:)`` walks a
/// record with them.
struct EntityRecordNames {
    /// The plan's attribute slots.
    let slots: [Int]
    /// The plan's attribute slots and their names' bytes, in byte order.
    let ordered: [(slot: Int, bytes: [UInt8])]
    /// The plan's names, by slot.
    private let names: [String]
    /// Whether some attribute name is not ASCII only.
    private let hasNonASCIIName: Bool

    init(plan: EntityPlan) {
        slots = plan.attributeSlots
        ordered = plan.attributeSlotsInByteOrder.map { ($0, Array(plan.names[$0].utf8)) }
        names = plan.names
        hasNonASCIIName = ordered.contains { $0.bytes.contains { $0 >= 0x80 } }
    }

    /// The attribute slot whose name Swift finds equal to `name`, whose `bytes` match no name
    /// exactly: another Unicode spelling of it. Two spellings of one name are never both ASCII.
    func slot(spelledAs name: String, bytes: UnsafeRawBufferPointer) -> Int? {
        guard hasNonASCIIName || bytes.contains(where: { $0 >= 0x80 }) else { return nil }
        return slots.first { names[$0] == name }
    }
}
