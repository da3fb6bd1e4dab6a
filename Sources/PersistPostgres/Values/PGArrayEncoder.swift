/// One-dimensional arrays in PostgreSQL's binary format, for `unnest($1::bigint[], $2::bytea[])`:
/// the dimension count, a has-nulls flag, the element type, the length and lower bound (1), then
/// each element as a 32-bit length (-1 for NULL) and its binary form.
///
/// ```swift
/// let ids = PGArrayEncoder.array(of: [.int8(1), .int8(2)], elementType: PGType.int8)
/// ```
package enum PGArrayEncoder {
    /// The array of `elements`, all of `elementType` (or NULL), as a parameter.
    package static func array(of elements: [PGValue], elementType: UInt32) -> PGValue {
        let arrayType: UInt32
        switch elementType {
        case PGType.int8: arrayType = PGType.int8Array
        case PGType.text: arrayType = PGType.textArray
        default: arrayType = PGType.byteaArray
        }
        return array(of: elements, elementType: elementType, arrayType: arrayType)
    }

    /// The array of `elements`, all of `elementType` (or NULL), as a parameter of `arrayType`.
    package static func array(of elements: [PGValue], elementType: UInt32, arrayType: UInt32) -> PGValue {
        var bytes: [UInt8] = []
        let hasNulls = elements.contains(where: \.isNull)
        bytes.appendBigEndian(Int32(elements.isEmpty ? 0 : 1))
        bytes.appendBigEndian(Int32(hasNulls ? 1 : 0))
        bytes.appendBigEndian(elementType)
        if !elements.isEmpty {
            bytes.appendBigEndian(Int32(clamping: elements.count))
            bytes.appendBigEndian(Int32(1))
            for element in elements {
                if let length = element.binaryLength {
                    bytes.appendBigEndian(Int32(clamping: length))
                    element.appendBinary(to: &bytes)
                } else {
                    bytes.appendBigEndian(Int32(-1))
                }
            }
        }
        return .raw(type: arrayType, bytes: bytes)
    }
}
