import Persist

/// Writing a value straight into a COPY row, without a parameter in between.
extension ColumnType {
    /// Appends `value` as one field of a column of this type; `false`, appending nothing, when
    /// the column cannot keep it exactly (the same rule as ``encode(_:persistDateOID:)``).
    ///
    /// The types a created table and the usual legacy tables use are written in place; the rest
    /// go through ``encode(_:persistDateOID:)``.
    func appendCopyField(_ value: Value, to encoder: inout PGCopyEncoder, persistDateOID: UInt32) throws -> Bool {
        switch (self, value) {
        case (_, .null):
            encoder.appendNull()
        case (.bigint, .int(let int)):
            encoder.appendField(UInt64(bitPattern: int))
        case (.doublePrecision, .double(let double)):
            encoder.appendField(double.bitPattern)
        case (.boolean, .bool(let bool)):
            encoder.appendField(bool)
        case (.text(nil, _), .string(let string)):
            guard !string.containsNUL else { return false }
            try encoder.appendField(string)
        case (.bytea, .bytes(let bytes)):
            try bytes.withUnsafeBytes { try encoder.appendField($0) }
        case (.timestamptz, .date(let date)):
            guard let micros = TimeCoding.microseconds(from: date) else { return false }
            encoder.appendField(UInt64(bitPattern: micros))
        case (.persistDate, .date(let date)):
            encoder.appendField(length: Int32(TimeCoding.compositeLength(date))) { TimeCoding.appendComposite(date, to: &$0) }
        default:
            guard let encoded = encode(value, persistDateOID: persistDateOID) else { return false }
            try encoder.appendField(encoded)
        }
        return true
    }
}
