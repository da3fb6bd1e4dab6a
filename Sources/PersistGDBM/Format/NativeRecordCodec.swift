import Foundation
import Persist

/// Records of the native layout: a version byte, then the attributes sorted by name bytes, each as
/// `text name · varint value byte count · BinaryValueCoding value` (see the "GDBM storage format"
/// article of Persist's documentation).
///
/// The per-attribute byte count lets a query skip attributes it does not need without decoding
/// them. Every read is bounds-checked; malformed bytes throw `DataStoreError.Code.corrupt` and a
/// record written by a newer format throws `DataStoreError.Code.unsupported`, never a trap.
enum NativeRecordCodec {
    /// The version byte that starts every record this code writes.
    static let version: UInt8 = 1

    /// Appends the record of `attributes` (null values are left out, as items never hold them).
    static func encode(_ attributes: [String: Value], into buffer: inout [UInt8]) throws {
        buffer.append(version)
        let names = BinaryValueCoding.sortedKeys(attributes).filter { attributes[$0]?.isNull == false }
        BinaryValueCoding.appendVarint(UInt64(names.count), to: &buffer)
        var scratch: [UInt8] = []
        for name in names {
            guard let value = attributes[name] else { continue }
            if name.isEmpty || name.utf8.contains(0) {
                throw DataStoreError(.invalidArgument,
                                     "the attribute name \(String(reflecting: name)) is empty or contains NUL")
            }
            appendEntry(name, value, to: &buffer, scratch: &scratch)
        }
    }

    /// Appends one attribute entry: its name, its value's byte count, its value.
    static func appendEntry(_ name: String, _ value: Value, to buffer: inout [UInt8], scratch: inout [UInt8]) {
        BinaryValueCoding.appendLengthPrefixed(name, to: &buffer)
        appendValue(value, to: &buffer, scratch: &scratch)
    }

    /// Appends a value's byte count and its bytes, encoded through `scratch`.
    static func appendValue(_ value: Value, to buffer: inout [UInt8], scratch: inout [UInt8]) {
        scratch.removeAll(keepingCapacity: true)
        BinaryValueCoding.encode(value, into: &scratch)
        BinaryValueCoding.appendVarint(UInt64(scratch.count), to: &buffer)
        buffer.append(contentsOf: scratch)
    }

    /// Appends the record of a row, whose names are in the record's order already and were checked
    /// (not empty, no NUL).
    static func encode(_ row: ItemRow, into buffer: inout [UInt8], scratch: inout [UInt8]) {
        buffer.append(version)
        BinaryValueCoding.appendVarint(UInt64(row.values.count), to: &buffer)
        for (name, value) in zip(row.names.bytes, row.values) {
            BinaryValueCoding.appendVarint(UInt64(name.count), to: &buffer)
            buffer.append(contentsOf: name)
            appendValue(value, to: &buffer, scratch: &scratch)
        }
    }

    /// Checks the version byte and returns a reader positioned at the attribute count.
    static func start(_ record: UnsafeRawBufferPointer) throws -> ByteReader {
        var reader = ByteReader(record)
        let recordVersion = try reader.readByte()
        if recordVersion == 0 { throw DataStoreError(.corrupt, "the record has version 0, which is never written") }
        if recordVersion > version {
            throw DataStoreError(.unsupported,
                                 "the record has format version \(recordVersion); this version of Persist reads up to "
                                    + "\(version); open the file with a newer Persist")
        }
        return reader
    }

    /// Reads one attribute entry's name and value ranges, checking that names ascend.
    static func readEntry(
        _ reader: inout ByteReader, _ record: UnsafeRawBufferPointer, after previous: Range<Int>?
    ) throws -> (name: Range<Int>, value: Range<Int>) {
        let entryOffset = reader.offset
        let nameCount = try reader.readLength()
        guard nameCount > 0 else { throw DataStoreError(.corrupt, "an attribute name at byte \(entryOffset) is empty") }
        let nameStart = reader.offset
        try reader.skip(nameCount)
        let name = nameStart..<(nameStart + nameCount)
        if let previous, compare(record, previous, name) >= 0 {
            throw DataStoreError(.corrupt, "attribute names are out of order or repeated at byte \(entryOffset)")
        }
        let valueCount = try reader.readLength()
        guard valueCount > 0 else {
            throw DataStoreError(.corrupt, "the value of an attribute at byte \(entryOffset) is empty")
        }
        let valueStart = reader.offset
        try reader.skip(valueCount)
        return (name, valueStart..<(valueStart + valueCount))
    }

    /// Checks the record's structure (version, attribute table, lengths, order) without decoding values.
    static func validate(_ record: UnsafeRawBufferPointer) throws {
        var reader = try start(record)
        let count = try reader.readLength(minimumBytesEach: 4)
        var previous: Range<Int>?
        for _ in 0..<count {
            previous = try readEntry(&reader, record, after: previous).name
        }
        try reader.expectEnd()
    }

    /// The value of attribute `name`, decoding nothing else; `nil` when the record has none.
    /// Call ``validate(_:)`` first: lookups rely on the table being well-formed.
    static func lookup(_ name: String, in record: UnsafeRawBufferPointer) throws -> Value? {
        var name = name
        return try name.withUTF8 { target in
            var reader = try start(record)
            let count = try reader.readLength(minimumBytesEach: 4)
            var previous: Range<Int>?
            for _ in 0..<count {
                let entry = try readEntry(&reader, record, after: previous)
                previous = entry.name
                let order = compare(UnsafeRawBufferPointer(rebasing: record[entry.name]), UnsafeRawBufferPointer(target))
                if order == 0 { return try decodeValue(record, entry.value) }
                if order > 0 { return nil }
            }
            return nil
        }
    }

    /// Every attribute of the record.
    static func decode(_ record: UnsafeRawBufferPointer) throws -> [String: Value] {
        var attributes: [String: Value] = [:]
        try forEachEntry(record, reserve: { attributes.reserveCapacity($0) }) { name, value in
            let key = try self.name(record, name)
            attributes[key] = try decodeValue(record, value)
        }
        return attributes
    }

    /// Calls `visit` with the name and value ranges of each attribute entry, in name order, after
    /// `reserve` with their count; checks the record's structure on the way and its end after.
    static func forEachEntry(
        _ record: UnsafeRawBufferPointer, reserve: (Int) -> Void = { _ in },
        _ visit: (_ name: Range<Int>, _ value: Range<Int>) throws -> Void
    ) throws {
        var reader = try start(record)
        let count = try reader.readLength(minimumBytesEach: 4)
        reserve(count)
        var previous: Range<Int>?
        for _ in 0..<count {
            let entry = try readEntry(&reader, record, after: previous)
            previous = entry.name
            try visit(entry.name, entry.value)
        }
        try reader.expectEnd()
    }

    /// The attribute name in `range`, which must be valid UTF-8 without NUL.
    static func name(_ record: UnsafeRawBufferPointer, _ range: Range<Int>) throws -> String {
        let nameBytes = UnsafeRawBufferPointer(rebasing: record[range])
        guard let name = ByteReader.validUTF8(nameBytes) else {
            throw DataStoreError(.corrupt, "an attribute name at byte \(range.lowerBound) is not valid UTF-8")
        }
        guard !nameBytes.contains(0) else {
            throw DataStoreError(.corrupt, "an attribute name at byte \(range.lowerBound) contains NUL")
        }
        return name
    }

    static func decodeValue(_ record: UnsafeRawBufferPointer, _ range: Range<Int>) throws -> Value {
        var reader = ByteReader(UnsafeRawBufferPointer(rebasing: record[range]))
        let value = try BinaryValueCoding.decodeValue(from: &reader)
        guard reader.isAtEnd else {
            throw DataStoreError(.corrupt, "the value at byte \(range.lowerBound) has \(reader.remaining) bytes left over")
        }
        if value.isNull { throw DataStoreError(.corrupt, "the value at byte \(range.lowerBound) is null") }
        return value
    }

    private static func compare(_ record: UnsafeRawBufferPointer, _ a: Range<Int>, _ b: Range<Int>) -> Int {
        compare(UnsafeRawBufferPointer(rebasing: record[a]), UnsafeRawBufferPointer(rebasing: record[b]))
    }

    /// Lexicographic byte order: negative when `a` sorts first.
    static func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let common = min(a.count, b.count)
        if common > 0, let left = a.baseAddress, let right = b.baseAddress {
            let result = memcmp(left, right, common)
            if result != 0 { return Int(result) }
        }
        return a.count - b.count
    }
}
