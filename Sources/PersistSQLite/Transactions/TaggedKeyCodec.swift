import Persist

/// The keys of a created table that holds composite identifiers (see the "SQLite storage format"
/// article): integers and strings as they are, and BLOBs tagged by their first byte — `0x00`
/// before a bytes identifier's bytes, `0x01` before a composite identifier's tuple encoding — so
/// that SQLite's order of the key column (integers, text, then BLOBs by `memcmp`) is
/// ``ItemID``'s order: integers, strings, bytes, then composite identifiers.
///
/// The tuple encoding is order-preserving, component after component, with no end marker (so a
/// prefix sorts first): an integer is `0x01` and its 8 big-endian bytes with the sign bit
/// flipped; a string is `0x02` and its UTF-8 bytes, bytes are `0x03` and the bytes, each with
/// `0x00` written `0x00 0xFF` and ended by `0x00`.
///
/// ```swift
/// TaggedKeyCodec.binding(.composite([.int(1), .string("a")]))   // .blob([0x01, 0x01, 0x80, 0, …, 1, 0x02, 0x61, 0x00])
/// ```
enum TaggedKeyCodec {
    static let bytesTag: UInt8 = 0x00
    static let compositeTag: UInt8 = 0x01

    /// The key column's binding for `id` in a table with tagged keys.
    static func binding(_ id: ItemID) -> SQLBinding {
        switch id {
        case .int(let value): return .int(value)
        case .string(let value): return .text(value)
        case .bytes(let value): return .blob([bytesTag] + value)
        case .composite(let components):
            var encoded: [UInt8] = [compositeTag]
            for component in components { append(component, to: &encoded) }
            return .blob(encoded)
        }
    }

    private static func append(_ component: ItemID, to encoded: inout [UInt8]) {
        switch component {
        case .int(let value):
            encoded.append(0x01)
            let biased = UInt64(bitPattern: value) ^ (1 << 63)
            for shift in stride(from: 56, through: 0, by: -8) { encoded.append(UInt8(truncatingIfNeeded: biased >> UInt64(shift))) }
        case .string(let value):
            encoded.append(0x02)
            appendEscaped(Array(value.utf8), to: &encoded)
        case .bytes(let value):
            encoded.append(0x03)
            appendEscaped(value, to: &encoded)
        case .composite:
            // ItemID(components:) never nests composites; one made by hand is written as its components.
            for nested in component.components { append(nested, to: &encoded) }
        }
    }

    private static func appendEscaped(_ bytes: [UInt8], to encoded: inout [UInt8]) {
        for byte in bytes {
            encoded.append(byte)
            if byte == 0 { encoded.append(0xFF) }
        }
        encoded.append(0x00)
    }

    /// The identifier a tagged BLOB key holds; `nil` when it is not one.
    static func identifier(ofBlob blob: [UInt8]) -> ItemID? {
        guard let tag = blob.first else { return nil }
        if tag == bytesTag { return .bytes(Array(blob.dropFirst())) }
        guard tag == compositeTag else { return nil }
        var components: [ItemID] = []
        var index = 1
        while index < blob.count {
            let kind = blob[index]
            index += 1
            switch kind {
            case 0x01:
                guard index + 8 <= blob.count else { return nil }
                var biased: UInt64 = 0
                for byte in blob[index..<(index + 8)] { biased = biased << 8 | UInt64(byte) }
                index += 8
                components.append(.int(Int64(bitPattern: biased ^ (1 << 63))))
            case 0x02, 0x03:
                var bytes: [UInt8] = []
                var ended = false
                while index < blob.count {
                    let byte = blob[index]
                    index += 1
                    if byte != 0 {
                        bytes.append(byte)
                    } else if index < blob.count, blob[index] == 0xFF {
                        bytes.append(0)
                        index += 1
                    } else {
                        ended = true
                        break
                    }
                }
                guard ended else { return nil }
                if kind == 0x03 {
                    components.append(.bytes(bytes))
                } else {
                    guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
                    components.append(.string(text))
                }
            default:
                return nil
            }
        }
        guard components.count >= 2 else { return nil }
        return .composite(components)
    }
}
