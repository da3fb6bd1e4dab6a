#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The values of `inet`, `cidr`, `macaddr` and `macaddr8` columns: strings as PostgreSQL prints
/// them, made from and turned into the binary forms.
///
/// The binary `inet`/`cidr` is a family byte (2 for IPv4, 3 for IPv6), the mask's bit count, a
/// byte saying `cidr`, the address length, and the address.
///
/// ```swift
/// NetworkTextCoding.address(NetworkTextCoding.parseAddress("10.0.0.0/8", cidr: true)!)  // "10.0.0.0/8"
/// NetworkTextCoding.parseMAC("08:00:2B:01:02:03", length: 6)                            // 6 bytes
/// ```
enum NetworkTextCoding {
    static let ipv4Family: UInt8 = 2
    static let ipv6Family: UInt8 = 3

    /// The text of a binary `inet` or `cidr`: the address, then `/bits` for a `cidr` or a mask
    /// shorter than the address; `nil` for bytes that are not one.
    static func address(_ bytes: UnsafeRawBufferPointer) -> String? {
        guard bytes.count >= 4 else { return nil }
        let family = bytes[0], bits = Int(bytes[1]), isCIDR = bytes[2] != 0, length = Int(bytes[3])
        let expected = family == ipv4Family ? 4 : family == ipv6Family ? 16 : 0
        guard expected > 0, length == expected, bytes.count == 4 + length, bits <= 8 * length else { return nil }
        var address = [UInt8](repeating: 0, count: 16)
        for index in 0..<length { address[index] = bytes[4 + index] }
        var text = [CChar](repeating: 0, count: 64)
        let written = address.withUnsafeBytes { source in
            inet_ntop(family == ipv4Family ? AF_INET : AF_INET6, source.baseAddress, &text, socklen_t(text.count))
        }
        guard written != nil else { return nil }
        let printed = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return isCIDR || bits != 8 * length ? "\(printed)/\(bits)" : printed
    }

    /// The binary form of an address with an optional `/bits`; for a `cidr`, the bits right of
    /// the mask must be zero, as PostgreSQL requires. `nil` for anything else.
    static func parseAddress(_ text: String, cidr: Bool) -> [UInt8]? {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let host = String(parts[0])
        let isIPv6 = host.contains(":")
        var address = [UInt8](repeating: 0, count: 16)
        let parsed = address.withUnsafeMutableBytes { target in
            inet_pton(isIPv6 ? AF_INET6 : AF_INET, host, target.baseAddress)
        }
        guard parsed == 1 else { return nil }
        let length = isIPv6 ? 16 : 4
        var bits = 8 * length
        if parts.count == 2 {
            guard !parts[1].isEmpty, parts[1].count <= 3, parts[1].allSatisfy(\.isASCIIDigit),
                  let given = Int(parts[1]), given <= bits else { return nil }
            bits = given
        }
        if cidr {
            for bit in bits..<(8 * length) where address[bit / 8] & (0x80 >> UInt8(bit % 8)) != 0 { return nil }
        }
        return [isIPv6 ? ipv6Family : ipv4Family, UInt8(bits), cidr ? 1 : 0, UInt8(length)] + address.prefix(length)
    }

    /// The text of a `macaddr` (6 bytes) or `macaddr8` (8 bytes): lower-case hex pairs with colons.
    static func mac(_ bytes: UnsafeRawBufferPointer) -> String {
        let hex = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            if index > 0 { text.append(UInt8(ascii: ":")) }
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of `length` hex pairs separated by `:` or `-` (either case); `nil` otherwise.
    static func parseMAC(_ text: String, length: Int) -> [UInt8]? {
        let separators: Set<Character> = [":", "-"]
        let pairs = text.split(omittingEmptySubsequences: false) { separators.contains($0) }
        guard pairs.count == length else { return nil }
        var bytes: [UInt8] = []
        for pair in pairs {
            guard pair.count == 2, pair.allSatisfy(\.isHexDigit), let byte = UInt8(pair, radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}
