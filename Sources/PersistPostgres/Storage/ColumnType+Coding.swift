import Foundation
import Persist

/// Reading and writing a column's values in PostgreSQL's binary format.
extension ColumnType {
    /// The value in a column's binary bytes; `nil` for a value that is missing (a `persist_date`
    /// with both fields NULL, or a JSON `null`).
    ///
    /// - Throws: ``DecodingFailure`` for bytes that are not a value of the type; the caller names
    ///   the place in its `corrupt` error.
    func decode(_ bytes: UnsafeRawBufferPointer) throws -> Value? {
        func corrupt(_ what: String) -> DecodingFailure {
            DecodingFailure("holds \(bytes.count) bytes that are not \(what)")
        }
        func fixed<T: FixedWidthInteger>(_: T.Type, _ what: String) throws -> T {
            guard bytes.count == MemoryLayout<T>.size else { throw corrupt(what) }
            return T(bigEndianBytes: bytes)
        }
        switch self {
        case .boolean:
            guard bytes.count == 1 else { throw corrupt("a boolean") }
            return .bool(bytes[0] != 0)
        case .smallint: return .int(Int64(Int16(bitPattern: try fixed(UInt16.self, "a smallint"))))
        case .integer: return .int(Int64(Int32(bitPattern: try fixed(UInt32.self, "an integer"))))
        case .bigint: return .int(Int64(bitPattern: try fixed(UInt64.self, "a bigint")))
        case .numeric:
            guard let decoded = NumericCoding.decode(bytes) else { throw corrupt("a numeric") }
            return .decimal(try NumericCoding.decimal(of: decoded))
        case .real: return .double(Double(Float(bitPattern: try fixed(UInt32.self, "a real"))))
        case .doublePrecision: return .double(Double(bitPattern: try fixed(UInt64.self, "a double precision")))
        case .text, .character:
            return .string(String(decoding: bytes, as: UTF8.self))
        case .bytea:
            return .bytes([UInt8](bytes))
        case .date:
            return .date(TimeCoding.date(fromDays: Int32(bitPattern: try fixed(UInt32.self, "a date"))))
        case .timestamp, .timestamptz:
            return .date(TimeCoding.date(fromMicroseconds: Int64(bitPattern: try fixed(UInt64.self, "a timestamp"))))
        case .uuid:
            guard let string = UUIDCoding.string(bytes) else { throw corrupt("a uuid") }
            return .string(string)
        case .json:
            guard let value = try Self.json(bytes) else { throw corrupt("JSON") }
            return value.isNull ? nil : value
        case .jsonb:
            guard bytes.first == 1, let value = try Self.json(UnsafeRawBufferPointer(rebasing: bytes.dropFirst()))
            else { throw corrupt("jsonb") }
            return value.isNull ? nil : value
        case .time:
            return .string(TimeTextCoding.time(micros: Int64(bitPattern: try fixed(UInt64.self, "a time"))))
        case .timetz:
            guard bytes.count == 12 else { throw corrupt("a timetz") }
            let micros = Int64(bitPattern: UInt64(bigEndianBytes: UnsafeRawBufferPointer(rebasing: bytes[0..<8])))
            let zone = Int32(bitPattern: UInt32(bigEndianBytes: UnsafeRawBufferPointer(rebasing: bytes[8..<12])))
            return .string(TimeTextCoding.timetz(micros: micros, secondsWest: zone))
        case .interval:
            guard bytes.count == 16 else { throw corrupt("an interval") }
            return .string(TimeTextCoding.interval(
                micros: Int64(bitPattern: UInt64(bigEndianBytes: UnsafeRawBufferPointer(rebasing: bytes[0..<8]))),
                days: Int32(bitPattern: UInt32(bigEndianBytes: UnsafeRawBufferPointer(rebasing: bytes[8..<12]))),
                months: Int32(bitPattern: UInt32(bigEndianBytes: UnsafeRawBufferPointer(rebasing: bytes[12..<16])))))
        case .inet, .cidr:
            guard let text = NetworkTextCoding.address(bytes) else { throw corrupt("a network address") }
            return .string(text)
        case .macaddr:
            guard bytes.count == 6 else { throw corrupt("a macaddr") }
            return .string(NetworkTextCoding.mac(bytes))
        case .macaddr8:
            guard bytes.count == 8 else { throw corrupt("a macaddr8") }
            return .string(NetworkTextCoding.mac(bytes))
        case .enumeration:
            return .string(String(decoding: bytes, as: UTF8.self))
        case .array(let element, _):
            return .array(try ArrayCoding.elements(bytes).map { bytes in try bytes.flatMap { try element.decode($0) } ?? .null })
        case .persistDate:
            return try TimeCoding.date(fromComposite: bytes).map(Value.date)
        case .encoded(let kind):
            let value: Value
            do {
                value = try BinaryValueCoding.decode([UInt8](bytes))
            } catch let error as DataStoreError {
                throw DecodingFailure("holds bytes that are not an encoded value: \(error.message)")
            }
            guard value.kind == kind else { throw corrupt("an encoded \(kind.rawValue)") }
            return value
        case .mixed:
            return try MixedValueCoding.decode(ArraySlice(bytes))
        }
    }

    /// The value of a `json` or `jsonb` column's text, read to the nearest value; `nil` when it is
    /// not JSON.
    ///
    /// - Throws: ``DecodingFailure`` (`unsupported`) for JSON that nests arrays and objects more
    ///   than ``BinaryValueCoding/maximumDepth`` levels deep, which PostgreSQL keeps and no
    ///   Persist value can hold.
    private static func json(_ bytes: UnsafeRawBufferPointer) throws -> Value? {
        do {
            return try JSONValueCoding.lenient.decode(bytes)
        } catch let failure as JSONValueCoding.Failure where failure.reason == .tooDeep {
            throw DecodingFailure("holds JSON that nests arrays and objects more than \(BinaryValueCoding.maximumDepth) "
                + "levels deep, which no Persist value can; flatten it with SQL", code: .unsupported)
        } catch {
            return nil
        }
    }

    /// The parameter for `value` in a column of this type; `nil` when the column cannot keep it
    /// exactly (another kind, a number out of range, a string with NUL in `text`, …).
    ///
    /// `persistDateOID` is the OID of the schema's `persist_date` type.
    func encode(_ value: Value, persistDateOID: UInt32) -> PGValue? {
        switch (self, value) {
        case (_, .null): return .null
        case (.boolean, .bool(let bool)): return .bool(bool)
        case (.smallint, .int(let int)):
            guard let small = Int16(exactly: int) else { return nil }
            return .raw(type: PGType.int2, bytes: bigEndian(UInt16(bitPattern: small)))
        case (.integer, .int(let int)):
            guard let regular = Int32(exactly: int) else { return nil }
            return .raw(type: PGType.int4, bytes: bigEndian(UInt32(bitPattern: regular)))
        case (.bigint, .int(let int)): return .int8(int)
        case (.numeric(let precision, let scale), .int(let int)):
            guard Self.fits(int.magnitude, precision: precision, scale: scale) else { return nil }
            return .raw(type: PGType.numeric, bytes: NumericCoding.encode(int))
        case (.numeric(let precision, let scale), .double(let double)):
            // A numeric keeps NaN but no infinity: a numeric with a precision refuses one (the
            // server's "numeric field overflow" would name no column), and one without would read
            // back as no decimal.
            guard double.isNaN || (double.isFinite && Self.fits(double.magnitude, precision: precision, scale: scale))
            else { return nil }
            return NumericCoding.encode(double).map { .raw(type: PGType.numeric, bytes: $0) }
        case (.numeric(let precision, let scale), .decimal(let decimal)):
            return NumericCoding.encode(decimal, precision: precision, scale: scale).map { .raw(type: PGType.numeric, bytes: $0) }
        case (.time, .string(let string)):
            guard let micros = TimeTextCoding.parseTime(Substring(string)) else { return nil }
            return .raw(type: PGType.time, bytes: bigEndian(UInt64(bitPattern: micros)))
        case (.timetz, .string(let string)):
            guard let (micros, zone) = TimeTextCoding.parseTimetz(string) else { return nil }
            return .raw(type: PGType.timetz, bytes: bigEndian(UInt64(bitPattern: micros)) + bigEndian(UInt32(bitPattern: zone)))
        case (.interval, .string(let string)):
            guard let (micros, days, months) = TimeTextCoding.parseInterval(string) else { return nil }
            return .raw(type: PGType.interval, bytes: bigEndian(UInt64(bitPattern: micros))
                + bigEndian(UInt32(bitPattern: days)) + bigEndian(UInt32(bitPattern: months)))
        case (.inet, .string(let string)), (.cidr, .string(let string)):
            return NetworkTextCoding.parseAddress(string, cidr: self == .cidr).map { .raw(type: builtinOID, bytes: $0) }
        case (.macaddr, .string(let string)):
            return NetworkTextCoding.parseMAC(string, length: 6).map { .raw(type: PGType.macaddr, bytes: $0) }
        case (.macaddr8, .string(let string)):
            return NetworkTextCoding.parseMAC(string, length: 8).map { .raw(type: PGType.macaddr8, bytes: $0) }
        case (.enumeration(let oid, let labels), .string(let string)):
            guard labels.contains(string) else { return nil }
            return .raw(type: oid, bytes: Array(string.utf8))
        case (.array(let element, let oid), .array(let values)):
            var elements: [PGValue] = []
            elements.reserveCapacity(values.count)
            for value in values {
                guard let encoded = element.encode(value, persistDateOID: persistDateOID) else { return nil }
                elements.append(encoded)
            }
            return ArrayCoding.encode(elements, elementType: element.builtinOID, arrayType: oid)
        case (.real, .double(let double)):
            let single = Float(double)
            guard Double(single).bitPattern == double.bitPattern || (double.isNaN && single.isNaN) else { return nil }
            return .raw(type: PGType.float4, bytes: bigEndian(single.bitPattern))
        case (.doublePrecision, .double(let double)): return .float8(double)
        case (.text(let maxLength, _), .string(let string)):
            guard !string.containsNUL else { return nil }
            if let maxLength, string.unicodeScalars.count > maxLength { return nil }
            return .text(string)
        case (.character(let length), .string(let string)):
            // PostgreSQL pads shorter strings and reads them back padded: only full-length ones fit.
            guard !string.containsNUL, string.unicodeScalars.count == length else { return nil }
            return .raw(type: PGType.bpchar, bytes: Array(string.utf8))
        case (.bytea, .bytes(let bytes)): return .bytea(bytes)
        case (.date, .date(let date)):
            guard let days = TimeCoding.days(from: date) else { return nil }
            return .raw(type: PGType.date, bytes: bigEndian(UInt32(bitPattern: days)))
        case (.timestamp, .date(let date)):
            guard let micros = TimeCoding.microseconds(from: date) else { return nil }
            return .raw(type: PGType.timestamp, bytes: bigEndian(UInt64(bitPattern: micros)))
        case (.timestamptz, .date(let date)):
            guard let micros = TimeCoding.microseconds(from: date) else { return nil }
            return .timestamptz(micros)
        case (.uuid, .string(let string)):
            return UUIDCoding.bytes(string).map { .raw(type: PGType.uuid, bytes: $0) }
        case (.json, _):
            return (try? JSONValueCoding.lenient.encode(value)).map { .raw(type: PGType.json, bytes: $0) }
        case (.jsonb, _):
            guard let text = try? JSONValueCoding.lenient.encode(value),
                  !String(decoding: text, as: UTF8.self).contains("\\u0000") else { return nil }
            return .raw(type: PGType.jsonb, bytes: [1] + text)
        case (.persistDate, .date(let date)):
            return .raw(type: persistDateOID, bytes: TimeCoding.composite(date))
        case (.encoded(let kind), _) where value.kind == kind:
            return .bytea(BinaryValueCoding.encode(value))
        case (.mixed, _):
            return .bytea(MixedValueCoding.encode(value))
        default:
            return nil
        }
    }

    /// Whether an integer's magnitude has no more digits than a `numeric(precision, scale)` keeps
    /// before its decimal point (`precision - scale`), so that the server does not refuse it with
    /// "numeric field overflow", which names no column.
    static func fits(_ magnitude: UInt64, precision: Int?, scale: Int?) -> Bool {
        guard let precision else { return true }
        let digits = precision - (scale ?? 0)
        // UInt64.max has 20 digits; Int64's magnitudes have at most 19.
        guard digits < 19 else { return true }
        guard digits > 0 else { return magnitude == 0 }
        var bound: UInt64 = 1
        for _ in 0..<digits { bound *= 10 }
        return magnitude < bound
    }

    /// ``fits(_:precision:scale:)`` for a double's magnitude, checked where the bound is a double
    /// exactly (10^22 and below); a value that only rounding to the scale carries over the bound
    /// (999.999 in `numeric(5,2)`) is left to the server, which refuses it the same way.
    static func fits(_ magnitude: Double, precision: Int?, scale: Int?) -> Bool {
        guard let precision else { return true }
        let digits = precision - (scale ?? 0)
        guard digits <= 22 else { return true }
        guard digits > 0 else { return magnitude < 1 }
        var bound = 1.0
        for _ in 0..<digits { bound *= 10 }
        return magnitude < bound
    }

    /// What a column of this type gives back for `value` once stored: the value itself for every
    /// type but timestamps, which keep microseconds, and `numeric`, which gives an integer or a
    /// double back as the decimal it was sent as (before any rounding to the column's scale).
    func stored(_ value: Value) -> Value {
        switch (self, value) {
        case (.timestamp, .date(let date)), (.timestamptz, .date(let date)):
            guard let micros = TimeCoding.microseconds(from: date) else { return value }
            return .date(TimeCoding.date(fromMicroseconds: micros))
        case (.numeric, .int(let int)):
            return .decimal(Decimal(int))
        case (.numeric, .double(let double)):
            if double.isNaN { return .decimal(.nan) }
            return DecimalText.decimal(nearest: double).map(Value.decimal) ?? value
        case (.array(let element, _), .array(let values)):
            return .array(values.map(element.stored))
        default:
            return value
        }
    }

    /// Whether ``inexactness(_:)`` can find anything in this type's values.
    var mayBeInexact: Bool {
        switch self {
        case .timestamp, .timestamptz, .json, .jsonb: true
        case .array(let element, _): element.mayBeInexact
        default: false
        }
    }

    /// Why the value ``decode(_:)`` makes of these bytes is not exactly what the column holds,
    /// or `nil` when it is: a `numeric` whose value no 64-bit integer or double equals, a
    /// timestamp whose microsecond the nearest `Date` does not keep (far from 2001). Reads give
    /// the nearest value, as documented; a migration refuses to copy it (see
    /// ``RowDecoder/exactValue(_:column:id:)``).
    func inexactness(_ bytes: UnsafeRawBufferPointer) -> String? {
        switch self {
        case .array(let element, _):
            guard let elements = try? ArrayCoding.elements(bytes) else { return nil }
            for case let bytes? in elements {
                if let inexact = element.inexactness(bytes) { return "an array element that is \(inexact)" }
            }
            return nil
        case .timestamp, .timestamptz:
            guard bytes.count == 8 else { return nil }
            let micros = Int64(bitPattern: UInt64(bigEndianBytes: bytes))
            guard micros != .max, micros != .min else { return nil }
            if TimeCoding.microseconds(from: TimeCoding.date(fromMicroseconds: micros)) == micros { return nil }
            return "a timestamp whose microsecond a Date, which counts seconds from 2001 in a double, does not keep"
        case .json:
            return JSONValueCoding.lenient.inexactness(bytes, numberIsExact: NumericCoding.isExact)
        case .jsonb:
            guard bytes.first == 1 else { return nil }
            return JSONValueCoding.lenient.inexactness(UnsafeRawBufferPointer(rebasing: bytes.dropFirst()),
                                                       numberIsExact: NumericCoding.isExact)
        default:
            return nil
        }
    }

    /// The identifier in a key column's binary bytes.
    func decodeID(_ bytes: UnsafeRawBufferPointer) throws -> ItemID {
        if self == .mixed, bytes.first == MixedValueCoding.compositeTag,
           let id = try MixedValueCoding.decodeID(ArraySlice(bytes)) {
            return id
        }
        guard let value = try decode(bytes), let id = ItemID(value) else {
            throw DecodingFailure("holds a key that is not an identifier (integer, string or bytes)")
        }
        return id
    }

    /// The parameter selecting `id` in a key column of this type; `nil` when no row can have it.
    func encodeID(_ id: ItemID) -> PGValue? {
        switch (self, id) {
        case (.mixed, _): .bytea(MixedValueCoding.encodeID(id))
        case (.timestamp, _), (.timestamptz, _), (.date, _): nil
        default: encode(id.value, persistDateOID: 0)
        }
    }

    private func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendBigEndian(value)
        return bytes
    }
}

/// A column value that cannot be read: bytes that are not a value of the column's type
/// (`corrupt`), or a value of it that Persist cannot hold (`unsupported`); the caller turns it
/// into a `DataStoreError` naming the place.
struct DecodingFailure: Error {
    /// What is wrong, after the place: "holds 3 bytes that are not a boolean".
    let detail: String
    /// The error's code: `corrupt` for bytes that are not a value of the type, `unsupported` for
    /// a value of the type that Persist cannot hold.
    let code: DataStoreError.Code

    init(_ detail: String, code: DataStoreError.Code = .corrupt) {
        self.detail = detail
        self.code = code
    }

    /// The error for `place` ("the column "x" of item …").
    func error(at place: String, path: String? = nil, items: [ItemReference] = []) -> DataStoreError {
        DataStoreError(code, "\(place) \(detail)", path: path, items: items)
    }
}
