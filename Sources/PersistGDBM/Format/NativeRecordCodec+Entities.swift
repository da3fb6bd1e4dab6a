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
    /// side. Checks and decodes every entry, as ``decode(_:)`` does.
    ///
    /// - Parameter names: the plan's attribute slots and their names' bytes, in byte order.
    /// - Returns: whether the record has attributes the plan has no slot for.
    static func fill(
        _ values: UnsafeMutableBufferPointer<Value>, names: [(slot: Int, bytes: [UInt8])], slots: [Int],
        from record: UnsafeRawBufferPointer
    ) throws -> Bool {
        for slot in slots { values[slot] = .null }
        var next = 0
        var hasOthers = false
        try forEachEntry(record) { name, value in
            let nameBytes = UnsafeRawBufferPointer(rebasing: record[name])
            var order = 1
            while next < names.count {
                order = names[next].bytes.withUnsafeBytes { compare($0, nameBytes) }
                if order >= 0 { break }
                next += 1
            }
            if order == 0 {
                values[names[next].slot] = try decodeValue(record, value)
                next += 1
            } else {
                _ = try self.name(record, name)
                _ = try decodeValue(record, value)
                hasOthers = true
            }
        }
        return hasOthers
    }
}
