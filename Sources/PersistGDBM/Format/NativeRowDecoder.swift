import Foundation
import Persist

/// Decodes native records into rows for a migration: the values in the record's own order (names
/// ascending by bytes, as the format stores them), and the names as a shape shared with every
/// earlier record that had exactly the same names — found by comparing bytes, so that a record of
/// a known shape costs no name strings and no hashing.
///
/// The checks are those of ``NativeRecordCodec/decode(_:)``: malformed bytes throw `corrupt`.
struct NativeRowDecoder {
    /// The shapes seen, most recently used first.
    private var shapes: [AttributeNames] = []
    private var nameRanges: [Range<Int>] = []
    private var valueRanges: [Range<Int>] = []
    private static let shapeLimit = 32

    /// The shape and values of `record`.
    mutating func decode(_ record: UnsafeRawBufferPointer) throws -> (AttributeNames, [Value]) {
        var reader = try NativeRecordCodec.start(record)
        let count = try reader.readLength(minimumBytesEach: 4)
        nameRanges.removeAll(keepingCapacity: true)
        valueRanges.removeAll(keepingCapacity: true)
        for _ in 0..<count {
            // The order of the names is checked only for a shape not seen before: a known shape's
            // names are in order, and these match them byte for byte.
            let entry = try NativeRecordCodec.readEntry(&reader, record, after: nil)
            nameRanges.append(entry.name)
            valueRanges.append(entry.value)
        }
        try reader.expectEnd()
        let names = try shape(record)
        var values: [Value] = []
        values.reserveCapacity(count)
        for range in valueRanges { values.append(try NativeRecordCodec.decodeValue(record, range)) }
        return (names, values)
    }

    /// The shape of the names just read: a known one, or a new one after checking its names.
    private mutating func shape(_ record: UnsafeRawBufferPointer) throws -> AttributeNames {
        for position in shapes.indices where shapes[position].matches(nameRanges, in: record) {
            let known = shapes[position]
            if position > 0 {
                shapes.remove(at: position)
                shapes.insert(known, at: 0)
            }
            return known
        }
        for (previous, range) in zip(nameRanges, nameRanges.dropFirst())
        where NativeRecordCodec.compare(UnsafeRawBufferPointer(rebasing: record[previous]),
                                        UnsafeRawBufferPointer(rebasing: record[range])) >= 0 {
            throw DataStoreError(.corrupt, "attribute names are out of order or repeated at byte \(range.lowerBound)")
        }
        var names: [String] = []
        for range in nameRanges {
            let bytes = UnsafeRawBufferPointer(rebasing: record[range])
            guard let name = ByteReader.validUTF8(bytes) else {
                throw DataStoreError(.corrupt, "an attribute name at byte \(range.lowerBound) is not valid UTF-8")
            }
            guard !bytes.contains(0) else {
                throw DataStoreError(.corrupt, "an attribute name at byte \(range.lowerBound) contains NUL")
            }
            names.append(name)
        }
        let shape = AttributeNames(sorted: names)
        shapes.insert(shape, at: 0)
        if shapes.count > Self.shapeLimit { shapes.removeLast() }
        return shape
    }
}
