import Foundation

/// Which schedulers' read blocks are running on the current thread, kept in the thread's own
/// storage so that the reentrancy checks of a write take no lock.
enum ReadBlockRegistry {
    /// The current thread's open read blocks, innermost last (a scheduler appears once per level).
    private final class Entries {
        var schedulers: [ObjectIdentifier] = []
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

    /// Records that a read block of `scheduler` starts on this thread.
    static func enter(_ scheduler: AnyObject) {
        entries.schedulers.append(ObjectIdentifier(scheduler))
    }

    /// Records that the innermost read block of `scheduler` on this thread ended.
    static func leave(_ scheduler: AnyObject) {
        let list = entries
        if let index = list.schedulers.lastIndex(of: ObjectIdentifier(scheduler)) {
            list.schedulers.remove(at: index)
        }
    }

    /// Whether a read block of `scheduler` is running on this thread.
    static func isInside(_ scheduler: AnyObject) -> Bool {
        guard let raw = pthread_getspecific(key) else { return false }
        return Unmanaged<Entries>.fromOpaque(raw).takeUnretainedValue().schedulers.contains(ObjectIdentifier(scheduler))
    }
}
