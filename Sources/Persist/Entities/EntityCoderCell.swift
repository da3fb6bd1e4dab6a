import Foundation
import Synchronization

/// Where an entity coder's top-level containers find their coder, without holding a reference
/// to it: which coder is running, and on which thread.
///
/// The standard library's container boxes copy the container on every call they forward; a
/// container holding only the address of its coder's cell (a *token*) is copied without
/// reference counting, and can be kept from one entity to the next without a reference cycle.
///
/// A coder takes a cell for its lifetime and gives it back when it is deinitialized. Cells are
/// never freed (a given-back cell waits in a pool for the next coder), so a token is always safe to
/// read. It is honoured only while its own coder runs, on the thread running it: a container (or a
/// `Decoder`) a model kept after its entity was coded, used from another thread, or used once the
/// cell serves another coder (of either kind: decoders and encoders share the pool), finds
/// nothing. The check is three relaxed atomic loads and a comparison with `pthread_self()`, which
/// is what makes it cheap enough to run for every key.
final class EntityCoderCell: Sendable {
    /// The thread running the coder (`pthread_self()`), 0 while it does not run.
    private let thread = Atomic<UInt>(0)
    /// The address of the running coder; meaningful only to the thread in ``thread``, which
    /// stored it and keeps the coder alive while it runs.
    private let coder = Atomic<UInt>(0)
    /// Which coder holds the cell: raised each time the cell is handed to a new one, so that the
    /// tokens of its earlier coders no longer match.
    private let generation = Atomic<UInt>(0)

    private static let pool = Locked<[EntityCoderCell]>([])

    private init() {}

    /// A cell for a new coder, which gives it back with ``recycle()`` when it is deinitialized.
    static func make() -> EntityCoderCell {
        let cell = pool.withLock { $0.popLast() } ?? EntityCoderCell()
        cell.generation.wrappingAdd(1, ordering: .relaxed)
        return cell
    }

    /// Gives the cell back for another coder; its tokens find nothing from then on.
    func recycle() {
        Self.pool.withLock { $0.append(self) }
    }

    /// The token handed to the containers of this cell's current coder.
    var token: EntityCoderToken {
        EntityCoderToken(cell: Unmanaged.passUnretained(self).toOpaque(), generation: generation.load(ordering: .relaxed))
    }

    /// Runs `body` with `coder` running on this thread, passing it the cell's token.
    func running<Coder: AnyObject, R>(_ coder: Coder, _ body: (EntityCoderToken) throws -> R) rethrows -> R {
        let outerThread = thread.load(ordering: .relaxed)
        let outerCoder = self.coder.load(ordering: .relaxed)
        self.coder.store(UInt(bitPattern: Unmanaged.passUnretained(coder).toOpaque()), ordering: .relaxed)
        thread.store(UInt(pthread_self()), ordering: .relaxed)
        defer {
            thread.store(outerThread, ordering: .relaxed)
            self.coder.store(outerCoder, ordering: .relaxed)
        }
        return try body(token)
    }

    /// Runs `body` with the coder whose token is `token`, if it is running on this thread; `nil`
    /// otherwise.
    @inline(__always)
    static func withCoder<Coder: AnyObject, R>(
        _ token: EntityCoderToken, as type: Coder.Type, _ body: (Coder) throws -> R
    ) rethrows -> R? {
        // The cell is alive: cells are never freed.
        try Unmanaged<EntityCoderCell>.fromOpaque(token.cell)._withUnsafeGuaranteedRef { cell in
            // Only the thread running the coder reads a match: it made the cell's generation
            // current (``make()``) before the token was handed out, and no other coder holds the
            // cell until this one gives it back. A token of an earlier coder, of either kind, has
            // an older generation.
            guard cell.thread.load(ordering: .relaxed) == UInt(pthread_self()),
                cell.generation.load(ordering: .relaxed) == token.generation,
                let address = UnsafeMutableRawPointer(bitPattern: cell.coder.load(ordering: .relaxed))
            else { return nil }
            // The coder is alive: `running` is on the stack of this thread and holds it.
            return try Unmanaged<Coder>.fromOpaque(address)._withUnsafeGuaranteedRef(body)
        }
    }
}

/// What an entity coder's containers hold to find their coder: its cell, and which of the cell's
/// coders it belongs to (see ``EntityCoderCell``).
struct EntityCoderToken {
    let cell: UnsafeMutableRawPointer
    let generation: UInt
}
