/// Splits what a PostgreSQL client sends into protocol messages: first the untyped startup
/// packets (an `SSLRequest` or `GSSENCRequest` the server declined, then the startup message),
/// then typed messages (a type byte and a length). Traffic it cannot read (TLS) makes it
/// ``isOpaque`` for good.
///
/// ```swift
/// var parser = PostgresMessageParser()
/// parser.feed(bytes) { type, body in if type == UInt8(ascii: "E") { executes += 1 } }
/// ```
struct PostgresMessageParser {
    private var pending: [UInt8] = []
    private var started = false
    /// Whether the stream could not be read as protocol messages (encrypted, or not PostgreSQL).
    private(set) var isOpaque = false

    /// The startup message's code: protocol version 3.0.
    private static let protocolVersion3: UInt32 = 196_608

    /// Adds bytes the client sent and calls `visit` with the type and body of each typed message
    /// they complete.
    mutating func feed(_ bytes: UnsafeRawBufferPointer, _ visit: (UInt8, ArraySlice<UInt8>) -> Void) {
        guard !isOpaque else { return }
        pending.append(contentsOf: bytes)
        var offset = 0
        while true {
            if !started {
                guard let length = integer(at: offset) else { break }
                guard length >= 8, length <= 10_000 else {
                    isOpaque = true
                    return
                }
                guard pending.count - offset >= Int(length), let code = integer(at: offset + 4) else { break }
                if code == Self.protocolVersion3 { started = true }
                offset += Int(length)
            } else {
                guard pending.count - offset >= 5, let length = integer(at: offset + 1) else { break }
                guard length >= 4, length < 1 << 30 else {
                    isOpaque = true
                    return
                }
                guard pending.count - offset >= 1 + Int(length) else { break }
                visit(pending[offset], pending[(offset + 5)..<(offset + 1 + Int(length))])
                offset += 1 + Int(length)
            }
        }
        pending.removeFirst(offset)
    }

    /// The big-endian 32-bit integer at `offset` of the pending bytes, if they reach that far.
    private func integer(at offset: Int) -> UInt32? {
        guard pending.count >= offset + 4 else { return nil }
        return pending[offset..<(offset + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    /// The zero-terminated strings at the start of a message body (a Parse's name and query, a
    /// Bind's portal and statement).
    static func strings(_ body: ArraySlice<UInt8>, count: Int) -> [String] {
        var strings: [String] = []
        var start = body.startIndex
        while strings.count < count, let end = body[start...].firstIndex(of: 0) {
            strings.append(String(decoding: body[start..<end], as: UTF8.self))
            start = end + 1
        }
        return strings
    }
}
