import Persist

/// Composite identifiers in a mixed key column (a created table's `persist_id` that widened):
/// tag `09`, then each component in key order, self-delimiting and order-keeping, so that
/// `bytea` comparison is ``ItemID`` order (integers < strings < bytes < composites; composites
/// component by component, a prefix first):
///
/// | component | bytes |
/// |---|---|
/// | integer | `02`, then its ``OrderedNumberCoding`` magnitude (1 or 11 bytes) |
/// | string | `04`, then its UTF-8 bytes with each `00` written `00 FF`, then `00 00` |
/// | bytes | `05`, then the bytes escaped the same way, then `00 00` |
extension MixedValueCoding {
    static let compositeTag: UInt8 = 9

    /// The key bytes of `id`: the mixed encoding of its value, or the composite encoding.
    static func encodeID(_ id: ItemID) -> [UInt8] {
        guard case .composite(let components) = id else { return encode(id.value) }
        var bytes: [UInt8] = [compositeTag]
        for component in components {
            switch component {
            case .int(let int):
                bytes.append(numberTag)
                OrderedNumberCoding.append(int, to: &bytes)
            case .string(let string):
                bytes.append(stringTag)
                appendEscaped(string.utf8, to: &bytes)
            case .bytes(let raw):
                bytes.append(bytesTag)
                appendEscaped(raw, to: &bytes)
            case .composite:
                // Components are never composite (ItemID(components:) refuses it): kept apart anyway.
                bytes.append(compositeTag)
            }
        }
        return bytes
    }

    /// The identifier in a mixed key column's bytes; `nil` for a value that is not one.
    ///
    /// - Throws: ``DecodingFailure`` when the bytes are not an encoding.
    static func decodeID(_ bytes: ArraySlice<UInt8>) throws -> ItemID? {
        guard bytes.first == compositeTag else { return ItemID(try decode(bytes)) }
        func corrupt(_ detail: String) -> DecodingFailure {
            DecodingFailure("holds bytes that are not a Persist composite identifier: \(detail)")
        }
        var components: [ItemID] = []
        var index = bytes.startIndex + 1
        while index < bytes.endIndex {
            let tag = bytes[index]
            index += 1
            switch tag {
            case numberTag:
                guard let (value, end) = OrderedNumberCoding.decode(bytes[index...], asInteger: true),
                      case .int(let int) = value else { throw corrupt("a bad integer") }
                components.append(.int(int))
                index = end
            case stringTag, bytesTag:
                var raw: [UInt8] = []
                var closed = false
                while index < bytes.endIndex {
                    let byte = bytes[index]
                    index += 1
                    guard byte == 0 else {
                        raw.append(byte)
                        continue
                    }
                    guard index < bytes.endIndex else { break }
                    let next = bytes[index]
                    index += 1
                    if next == 0 {
                        closed = true
                        break
                    }
                    guard next == 0xFF else { throw corrupt("a bad escape") }
                    raw.append(0)
                }
                guard closed else { throw corrupt("an unterminated component") }
                components.append(tag == stringTag ? .string(String(decoding: raw, as: UTF8.self)) : .bytes(raw))
            default:
                throw corrupt("the unknown component tag \(tag)")
            }
        }
        guard components.count >= 2 else { throw corrupt("fewer than two components") }
        return .composite(components)
    }

    private static func appendEscaped<Bytes: Sequence<UInt8>>(_ raw: Bytes, to bytes: inout [UInt8]) {
        for byte in raw {
            bytes.append(byte)
            if byte == 0 { bytes.append(0xFF) }
        }
        bytes.append(contentsOf: [0, 0])
    }
}
