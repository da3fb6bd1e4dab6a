/// CRC-32 as used by zlib, PNG and Ethernet (IEEE 802.3): reflected polynomial `0xEDB88320`,
/// initial value and final XOR `0xFFFFFFFF`. The journal uses it to tell a complete entry list
/// from a torn one.
///
/// `CRC32.checksum(of: Array("123456789".utf8)) == 0xCBF43926`.
struct CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 {
            value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1
        }
        return value
    }

    private var state: UInt32 = 0xFFFF_FFFF

    /// Feeds more bytes.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var crc = state
        Self.table.withUnsafeBufferPointer { table in
            for byte in bytes {
                crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
            }
        }
        state = crc
    }

    /// Feeds more bytes.
    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The checksum of everything fed so far.
    var value: UInt32 { state ^ 0xFFFF_FFFF }

    /// The checksum of `bytes`.
    static func checksum(of bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }

    /// The checksum of `bytes`.
    static func checksum(of bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { checksum(of: $0) }
    }
}
