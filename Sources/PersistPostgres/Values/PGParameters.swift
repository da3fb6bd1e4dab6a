/// Parameters encoded for `PQexecParams` / `PQexecPrepared`: every value in binary format, all
/// in one buffer, with the arrays libpq takes.
struct PGParameters {
    /// libpq's limit on parameters in one statement.
    static let maximumCount = 65535

    let types: [UInt32]
    private let lengths: [Int32]
    private let offsets: [Int?]
    private let buffer: [UInt8]

    init(_ values: [PGValue]) {
        if values.isEmpty {
            types = []
            lengths = []
            offsets = []
            buffer = []
            return
        }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(values.reduce(1) { $0 + ($1.binaryLength ?? 0) })
        var offsets: [Int?] = []
        var lengths: [Int32] = []
        for value in values {
            if value.isNull {
                offsets.append(nil)
                lengths.append(0)
            } else {
                let start = buffer.count
                value.appendBinary(to: &buffer)
                offsets.append(start)
                lengths.append(Int32(clamping: buffer.count - start))
            }
        }
        // One byte more, so that even an empty last value points into the buffer: a null
        // pointer would mean NULL to libpq.
        buffer.append(0)
        self.types = values.map(\.typeOID)
        self.lengths = lengths
        self.offsets = offsets
        self.buffer = buffer
    }

    var count: Int32 { Int32(clamping: types.count) }

    /// Calls `body` with the value pointers (nil for NULL), lengths and formats (all binary).
    func withArrays<R>(
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) throws -> R
    ) rethrows -> R {
        // No parameters (BEGIN, COMMIT): no arrays to make.
        if types.isEmpty { return try body(nil, nil, nil) }
        let formats = [Int32](repeating: 1, count: types.count)
        return try buffer.withUnsafeBufferPointer { storage in
            let base = UnsafeRawPointer(storage.baseAddress)
            let pointers: [UnsafePointer<CChar>?] = offsets.map { offset in
                offset.flatMap { base?.advanced(by: $0).assumingMemoryBound(to: CChar.self) }
            }
            return try pointers.withUnsafeBufferPointer { values in
                try lengths.withUnsafeBufferPointer { lengths in
                    try formats.withUnsafeBufferPointer { formats in
                        try body(values.baseAddress, lengths.baseAddress, formats.baseAddress)
                    }
                }
            }
        }
    }
}
