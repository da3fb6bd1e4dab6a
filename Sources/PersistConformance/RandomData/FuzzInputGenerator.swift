/// A random number generator that reads a fuzzer's input, one byte per draw, so that the input's
/// bytes make the choices of ``RandomData`` directly and a fuzzer's mutation of one byte changes
/// one choice (which keeps coverage guidance working, where hashing the input into a seed would not).
///
/// Each draw puts the next input byte both in the top 8 bits (which `Int.random(in:using:)` reads)
/// and in the top 8 of the low 53 bits (which `Double.random(in:using:)` reads), with the bits
/// below each copy set. With that pattern the standard library maps the byte evenly onto any
/// range of up to 256 values and never rejects a draw, and reads it as the fraction
/// `(byte + 1) / 256` (just below), so each choice of ``RandomData`` costs exactly one byte. Once
/// the input runs out, every draw reads as a zero byte (the first element of a choice, a `true`
/// chance), so the generated data stays finite and deterministic.
///
/// ```swift
/// var random = RandomData(generator: FuzzInputGenerator([3, 200, 17]), variety: .anything)
/// let value = random.value()
/// ```
public struct FuzzInputGenerator: RandomNumberGenerator, Sendable {
    private let bytes: [UInt8]
    private var position = 0

    /// A generator that reads `bytes` from the start.
    public init(_ bytes: some Sequence<UInt8>) {
        self.bytes = Array(bytes)
    }

    /// How many input bytes the draws have read so far.
    public var consumed: Int { position }

    /// The next input byte, in the bit pattern described above.
    public mutating func next() -> UInt64 {
        var byte: UInt8 = 0
        if position < bytes.count {
            byte = bytes[position]
            position += 1
        }
        return UInt64(byte) << 56 | 0x00E0_0000_0000_0000 | UInt64(byte) << 45 | 0x1FFF_FFFF_FFFF
    }
}
