/// Percent-decoding for the parts of a ``PostgresURL``, and percent-encoding to print them again.
enum PercentEncoding {
    /// `text` with every `%XX` replaced by its byte; the result must be UTF-8 without NUL.
    ///
    /// - Parameter part: the part's name for errors ("user name", "database name").
    static func decode(_ text: Substring, part: String) throws -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw URLPartRules.invalid("the \(part) has a '%' that is not followed by two hex digits")
            }
            bytes.append(high << 4 | low)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw URLPartRules.invalid("the \(part) is not valid UTF-8 once percent-decoded")
        }
        try URLPartRules.checkNoNUL(decoded, part: part)
        return decoded
    }

    /// `text` with every byte outside `A–Z a–z 0–9 - . _ ~` (and the bytes in `keeping`) written as `%XX`.
    static func encode(_ text: String, keeping: Set<UInt8> = []) -> String {
        var encoded = ""
        for byte in text.utf8 {
            if URLPartRules.isAlphanumeric(byte) || unreserved.contains(byte) || keeping.contains(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return encoded
    }

    private static let unreserved: Set<UInt8> = [UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~")]

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
