import Foundation
import Persist

/// Memory for the text and blob values of one row of a bulk load or a typed write, bound to the
/// statement without SQLite copying them (`SQLITE_STATIC`). The row's bytes are copied here once,
/// the statement is stepped, and the arena is reused for the next row; it only grows between rows,
/// so no bound pointer ever moves while SQLite may read it.
///
/// Owned by one write transaction and used by its thread only.
final class BindingArena {
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    private var used = 0

    init(capacity: Int = 4096) {
        self.capacity = max(capacity, 64)
        base = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 8)
    }

    deinit {
        base.deallocate()
    }

    /// Empties the arena for a row whose values need up to `bytes` bytes (grown now if needed).
    ///
    /// Statements keep their bindings after they are reset, so a statement bound through the
    /// arena points at freed or reused bytes until it is bound again: every user of such a
    /// statement binds all of its parameters before stepping it.
    func start(row bytes: Int) {
        used = 0
        guard bytes > capacity else { return }
        base.deallocate()
        capacity = max(bytes, capacity * 2)
        base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
    }

    /// Whether `count` more bytes fit in the row started last.
    func fits(_ count: Int) -> Bool { used + count <= capacity }

    /// Copies `bytes` in; the copy stays put until the next ``start(row:)``.
    func copy(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        precondition(used + bytes.count <= capacity, "a row bound through the arena outgrew the size it announced")
        let destination = base + used
        if let source = bytes.baseAddress, !bytes.isEmpty { destination.copyMemory(from: source, byteCount: bytes.count) }
        used += bytes.count
        return UnsafeRawBufferPointer(start: destination, count: bytes.count)
    }

    /// The bytes a value needs in the arena when bound to a created column.
    static func size(of value: Value) -> Int {
        switch value {
        case .string(let string): string.utf8.count
        case .bytes(let bytes): bytes.count
        default: 0
        }
    }
}
