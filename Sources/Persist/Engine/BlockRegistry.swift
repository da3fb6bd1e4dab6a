import Foundation

/// Which schedulers' read blocks, and which schedulers' write-queue work (write blocks, escape
/// hatches, merges), are running on the current thread, kept in the thread's own storage so that
/// the reentrancy checks of a write take no lock.
///
/// A dispatch queue knows only the innermost queue it runs on: a write block of one store that
/// merges a child runs on the child's queue too, and from there the parent's queue would not be
/// seen. The thread's list sees every level.
enum BlockRegistry {
    /// What a scheduler runs on a thread.
    enum Kind {
        case read, write
    }

    /// The current thread's open blocks, innermost last (a scheduler appears once per level).
    private final class Entries {
        // Exclusivity unchecked: one thread's own entries, changed only by `running` on that
        // thread, one append or removal at a time.
        @exclusivity(unchecked) var reads: [ObjectIdentifier] = []
        @exclusivity(unchecked) var writes: [ObjectIdentifier] = []
    }

    /// One process-wide key; each thread's `Entries` is released when the thread exits.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { raw in
            if let raw { Unmanaged<Entries>.fromOpaque(raw).release() }
        }
        return key
    }()

    private static var entries: Entries {
        if let raw = pthread_getspecific(key) {
            return Unmanaged<Entries>.fromOpaque(raw).takeUnretainedValue()
        }
        let created = Entries()
        pthread_setspecific(key, Unmanaged.passRetained(created).toOpaque())
        return created
    }

    /// Runs `body` recorded as a block of `kind` of `scheduler` on this thread.
    static func running<T>(_ kind: Kind, of scheduler: AnyObject, _ body: () throws -> T) rethrows -> T {
        let list = entries
        let id = ObjectIdentifier(scheduler)
        switch kind {
        case .read: list.reads.append(id)
        case .write: list.writes.append(id)
        }
        defer {
            switch kind {
            case .read: if let index = list.reads.lastIndex(of: id) { list.reads.remove(at: index) }
            case .write: if let index = list.writes.lastIndex(of: id) { list.writes.remove(at: index) }
            }
        }
        return try body()
    }

    /// Whether a block of `kind` of `scheduler` is running on this thread.
    static func isInside(_ kind: Kind, of scheduler: AnyObject) -> Bool {
        guard let raw = pthread_getspecific(key) else { return false }
        let list = Unmanaged<Entries>.fromOpaque(raw).takeUnretainedValue()
        return (kind == .read ? list.reads : list.writes).contains(ObjectIdentifier(scheduler))
    }
}
