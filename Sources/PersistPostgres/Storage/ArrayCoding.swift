import Persist

/// The values of array columns: PostgreSQL's binary array (the dimension count, a has-nulls flag,
/// the element type, each dimension's length and lower bound, then each element as a 32-bit
/// length, -1 for NULL, and its binary form) as an `.array` of the elements' values, NULL
/// elements as `.null`. Only one-dimensional arrays (and empty ones) are read.
///
/// ```swift
/// // int4[] '{1,NULL,3}' reads as .array([.int(1), .null, .int(3)])
/// ```
enum ArrayCoding {
    /// The elements' bytes of a binary array (`nil` for NULL ones), after checking its shape.
    ///
    /// - Throws: ``DecodingFailure`` for bytes that are not an array, or (`unsupported`) for an
    ///   array of more than one dimension.
    static func elements(_ bytes: UnsafeRawBufferPointer) throws -> [UnsafeRawBufferPointer?] {
        let corrupt = DecodingFailure("holds \(bytes.count) bytes that are not an array")
        func int32(_ offset: Int) throws -> Int32 {
            guard offset + 4 <= bytes.count else { throw corrupt }
            return Int32(bitPattern: UInt32(bigEndianBytes: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 4])))
        }
        let dimensions = try int32(0)
        guard dimensions >= 0 else { throw corrupt }
        if dimensions == 0 { return [] }
        guard dimensions == 1 else {
            throw DecodingFailure("holds an array of \(dimensions) dimensions, which Persist does not read (only "
                + "one-dimensional arrays); flatten it with SQL", code: .unsupported)
        }
        let count = try int32(12)
        guard count >= 0 else { throw corrupt }
        var offset = 20
        var elements: [UnsafeRawBufferPointer?] = []
        elements.reserveCapacity(Int(count))
        for _ in 0..<count {
            let length = try int32(offset)
            offset += 4
            if length < 0 {
                elements.append(nil)
                continue
            }
            guard offset + Int(length) <= bytes.count else { throw corrupt }
            elements.append(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + Int(length)]))
            offset += Int(length)
        }
        guard offset == bytes.count else { throw corrupt }
        return elements
    }

    /// The binary array of `elements` (already encoded, NULLs as ``PGValue/null``) of the type
    /// `elementType`, as a parameter of the array type `arrayType`.
    static func encode(_ elements: [PGValue], elementType: UInt32, arrayType: UInt32) -> PGValue {
        PGArrayEncoder.array(of: elements, elementType: elementType, arrayType: arrayType)
    }
}
