import Foundation
import Persist

/// The one piece of GDBM's on-disk header the replay adjusts (see ``JournalReplay``).
///
/// GDBM's header starts `int magic, int block_size, off_t dir, int dir_size, int dir_bits,
/// int bucket_size, int bucket_elems, off_t next_block` in the machine's byte order, for both the
/// standard and the extended (numsync) format with 64-bit `off_t`.
enum GDBMHeader {
    static let magic64: UInt32 = 0x1357_9ACF
    static let numsyncMagic64: UInt32 = 0x1357_9AD1
    static let nextBlockOffset: off_t = 32
    /// How far past the end of the file an interrupted update may have reserved space: one split
    /// reserves a block beyond the buckets it writes; this leaves a wide margin.
    static let reservedBlocks: Int64 = 64

    /// Raises `next_block` to cover the whole file plus ``reservedBlocks``, so that GDBM accepts
    /// every bucket the interrupted update wrote. Files with other magic numbers are left alone.
    static func coverInterruptedAllocations(path: String) throws {
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 40)
        var status = stat()
        guard header.withUnsafeMutableBytes({ pread(descriptor, $0.baseAddress, 40, 0) }) == 40,
              fstat(descriptor, &status) == 0
        else { return }
        let (magic, blockSize, nextBlock) = header.withUnsafeBytes { bytes in
            (bytes.loadUnaligned(fromByteOffset: 0, as: UInt32.self),
             Int64(bytes.loadUnaligned(fromByteOffset: 4, as: Int32.self)),
             bytes.loadUnaligned(fromByteOffset: Int(nextBlockOffset), as: Int64.self))
        }
        guard magic == magic64 || magic == numsyncMagic64, blockSize > 0 else { return }
        let covered = (Int64(status.st_size) + blockSize - 1) / blockSize * blockSize + reservedBlocks * blockSize
        guard nextBlock < covered else { return }
        var raised = covered
        let written = withUnsafeBytes(of: &raised) { pwrite(descriptor, $0.baseAddress, 8, nextBlockOffset) }
        guard written == 8 else {
            let code = errno
            throw DataStoreError(.io, "could not prepare the copy \(path) for recovery: \(GDBMErrors.systemText(code))",
                                 path: path, engineCode: Int(code), engineMessage: GDBMErrors.systemText(code))
        }
    }
}
