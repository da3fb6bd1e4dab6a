/// A deterministic 128-bit hash of bytes, the same in every process and on every run, for
/// checksums that are printed and compared (unlike `Hasher`, which is seeded per process).
///
/// It mixes 8-byte words into two independent 64-bit lanes and finishes each with a full
/// avalanche. It detects accidental differences; it is not meant to resist deliberate collisions.
///
/// ```swift
/// var hasher = StableHasher()
/// hasher.combine(bytes: [1, 2, 3])
/// let digest = hasher.finalize()   // (high: UInt64, low: UInt64)
/// ```
package struct StableHasher: Sendable {
    private var laneA: UInt64 = 0x243F_6A88_85A3_08D3
    private var laneB: UInt64 = 0x1319_8A2E_0370_7344
    private var length: UInt64 = 0
    private var pending: UInt64 = 0
    private var pendingCount: UInt64 = 0

    /// A hasher with the fixed starting state.
    package init() {}

    /// Adds bytes.
    package mutating func combine(bytes: [UInt8]) {
        bytes.withUnsafeBytes { combine($0) }
    }

    /// Adds the bytes of a buffer.
    package mutating func combine(_ bytes: UnsafeRawBufferPointer) {
        var index = 0
        while pendingCount != 0 && index < bytes.count {
            add(bytes[index])
            index += 1
        }
        while index + 8 <= bytes.count {
            mix(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
            index += 8
        }
        while index < bytes.count {
            add(bytes[index])
            index += 1
        }
    }

    private mutating func add(_ byte: UInt8) {
        pending |= UInt64(byte) << (pendingCount * 8)
        pendingCount += 1
        if pendingCount == 8 {
            mix(pending)
            pending = 0
            pendingCount = 0
        }
    }

    private mutating func mix(_ word: UInt64) {
        length &+= 8
        laneA = Self.rotate(laneA ^ (word &* 0x9E37_79B9_7F4A_7C15), 31) &* 0xBF58_476D_1CE4_E5B9
        laneB = Self.rotate(laneB &+ (word &* 0xC2B2_AE3D_27D4_EB4F), 29) &* 0x94D0_49BB_1331_11EB
    }

    /// The 128-bit digest of everything combined.
    package func finalize() -> (high: UInt64, low: UInt64) {
        var copy = self
        let total = copy.length &+ copy.pendingCount
        copy.mix(copy.pending ^ (copy.pendingCount << 56))
        return (Self.avalanche(copy.laneA ^ total), Self.avalanche(copy.laneB &+ total))
    }

    private static func rotate(_ value: UInt64, _ amount: UInt64) -> UInt64 {
        (value << amount) | (value >> (64 - amount))
    }

    private static func avalanche(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 33)) &* 0xFF51_AFD7_ED55_8CCD
        z = (z ^ (z >> 33)) &* 0xC4CE_B9FE_1A85_EC53
        return z ^ (z >> 33)
    }
}
