import Foundation
import Persist

/// The byte format of the journal file (see the "GDBM storage format" article of Persist's documentation):
///
/// ```
/// "PGDBJRNL" · version (1 byte) · entry count (u64 BE) · payload byte count (u64 BE) ·
/// entries · CRC-32 of everything before it (u32 BE)
/// entry: 0x01 · key count (u32 BE) · key · value count (u32 BE) · value     (store)
///        0x02 · key count (u32 BE) · key                                     (delete)
/// ```
///
/// A journal is complete only when its size, checksum, counts and entries all agree; anything
/// else is a torn write and is discarded.
enum JournalCodec {
    static let magic: [UInt8] = Array("PGDBJRNL".utf8)
    static let version: UInt8 = 1
    static let headerSize = 25
    static let trailerSize = 4

    enum Operation: UInt8 {
        case store = 0x01
        case delete = 0x02
    }

    /// What a journal file holds.
    enum Contents {
        /// A whole, checksummed entry list, ready to replay.
        case complete([GDBMJournalEntry])
        /// A torn or partial write; the reason says what did not add up.
        case torn(String)
        /// A complete journal written by a newer version of the format.
        case newer(version: UInt8)
    }

    /// The encoded size of an entry's payload part.
    static func payloadSize(of entry: GDBMJournalEntry) -> Int {
        switch entry {
        case .store(let key, let value): 1 + 4 + key.count + 4 + value.count
        case .delete(let key): 1 + 4 + key.count
        }
    }

    static func appendUInt32(_ value: UInt32, to buffer: inout [UInt8]) {
        for shift in stride(from: 24, through: 0, by: -8) { buffer.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    /// The header for `count` entries with `payloadSize` bytes of entries.
    static func header(count: Int, payloadSize: Int) -> [UInt8] {
        var header = magic
        header.append(version)
        BinaryValueCoding.appendFixed64(UInt64(count), to: &header)
        BinaryValueCoding.appendFixed64(UInt64(payloadSize), to: &header)
        return header
    }

    /// Appends an entry's bytes.
    static func append(_ entry: GDBMJournalEntry, to buffer: inout [UInt8]) {
        switch entry {
        case .store(let key, let value):
            buffer.append(Operation.store.rawValue)
            appendUInt32(UInt32(key.count), to: &buffer)
            buffer.append(contentsOf: key)
            appendUInt32(UInt32(value.count), to: &buffer)
            buffer.append(contentsOf: value)
        case .delete(let key):
            buffer.append(Operation.delete.rawValue)
            appendUInt32(UInt32(key.count), to: &buffer)
            buffer.append(contentsOf: key)
        }
    }

    /// The whole journal for `entries`, in memory (tests and small blocks).
    static func encode(_ entries: [GDBMJournalEntry]) -> [UInt8] {
        var bytes = header(count: entries.count, payloadSize: entries.reduce(0) { $0 + payloadSize(of: $1) })
        for entry in entries { append(entry, to: &bytes) }
        appendUInt32(CRC32.checksum(of: bytes), to: &bytes)
        return bytes
    }

    /// Reads a journal file's bytes. Never traps, whatever the bytes.
    ///
    /// A journal of a newer version is `.newer` as soon as its magic bytes and version byte say so:
    /// its layout, and so whether it is complete, is for that version to judge, and it must not be
    /// discarded as torn.
    static func inspect(_ bytes: UnsafeRawBufferPointer) -> Contents {
        if bytes.count > magic.count, bytes.prefix(magic.count).elementsEqual(magic), bytes[magic.count] > version {
            return .newer(version: bytes[magic.count])
        }
        guard bytes.count >= headerSize + trailerSize else {
            return .torn("it has \(bytes.count) bytes, fewer than a journal's header and checksum")
        }
        guard bytes.prefix(magic.count).elementsEqual(magic) else { return .torn("it does not start with the journal's magic bytes") }
        var reader = ByteReader(bytes)
        do {
            try reader.skip(magic.count)
            let fileVersion = try reader.readByte()
            let count = try reader.readFixed64()
            let payloadSize = try reader.readFixed64()
            let expectedSize = UInt64(headerSize + trailerSize).addingReportingOverflow(payloadSize)
            guard !expectedSize.overflow, expectedSize.partialValue == UInt64(bytes.count) else {
                return .torn("its header announces \(payloadSize) bytes of entries but the file has \(bytes.count) bytes")
            }
            let body = UnsafeRawBufferPointer(rebasing: bytes[..<(bytes.count - trailerSize)])
            var trailer = ByteReader(UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - trailerSize)...]))
            guard try trailer.readFixed32() == CRC32.checksum(of: body) else {
                return .torn("its checksum does not match its contents")
            }
            if fileVersion != version {
                return fileVersion > version ? .newer(version: fileVersion) : .torn("it has version \(fileVersion)")
            }
            var entries: [GDBMJournalEntry] = []
            entries.reserveCapacity(Int(min(count, UInt64(bytes.count / 5))))
            var entryReader = ByteReader(UnsafeRawBufferPointer(rebasing: body[headerSize...]))
            while !entryReader.isAtEnd {
                let operation = try entryReader.readByte()
                let key = try entryReader.readBytes(Int(try entryReader.readFixed32()))
                switch Operation(rawValue: operation) {
                case .store:
                    entries.append(.store(key: key, value: try entryReader.readBytes(Int(try entryReader.readFixed32()))))
                case .delete:
                    entries.append(.delete(key: key))
                case nil:
                    return .torn("it holds an unknown operation 0x\(String(operation, radix: 16))")
                }
            }
            guard UInt64(entries.count) == count else {
                return .torn("its header announces \(count) entries but it holds \(entries.count)")
            }
            return .complete(entries)
        } catch {
            return .torn("its entries do not parse: \(error)")
        }
    }
}
