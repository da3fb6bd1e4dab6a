/// The values of adopted `uuid` columns and keys: strings in the lower-case form PostgreSQL
/// prints (`6f9619ff-8b86-d011-b42d-00cf4fc964ff`). Byte order and the order of these strings
/// agree.
enum UUIDCoding {
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The canonical string of 16 bytes.
    static func string(_ bytes: UnsafeRawBufferPointer) -> String? {
        guard bytes.count == 16 else { return nil }
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(index) { text.append(UInt8(ascii: "-")) }
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The 16 bytes of a string in the canonical lower-case form; `nil` for any other string.
    static func bytes(_ string: String) -> [UInt8]? {
        let text = Array(string.utf8)
        guard text.count == 36 else { return nil }
        var bytes: [UInt8] = []
        var nibble: UInt8?
        for (index, character) in text.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard character == UInt8(ascii: "-") else { return nil }
                continue
            }
            let value: UInt8
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = character - UInt8(ascii: "a") + 10
            default: return nil
            }
            if let high = nibble {
                bytes.append(high << 4 | value)
                nibble = nil
            } else {
                nibble = value
            }
        }
        return bytes.count == 16 ? bytes : nil
    }
}
