import Foundation

/// Which entity encoder or decoder runs innermost on each thread, so that the top-level coding
/// containers can find theirs without holding a reference to it.
///
/// The standard library's container boxes copy the container on every call they forward; a
/// container holding only the coder's address (a *token*) is copied without reference counting,
/// and can be kept from one entity to the next without a reference cycle. A token is honoured only
/// while its coder runs on the current thread: a container used after its entity was coded, or on
/// another thread, finds nothing.
enum EntityCoderRegistry {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Runs `body` with `coder` registered as the innermost coder of this thread.
    static func running<Coder: AnyObject, R>(_ coder: Coder, _ body: (UnsafeMutableRawPointer) throws -> R) rethrows -> R {
        let token = Unmanaged.passUnretained(coder).toOpaque()
        let outer = pthread_getspecific(key)
        pthread_setspecific(key, token)
        defer { pthread_setspecific(key, outer) }
        return try body(token)
    }

    /// Runs `body` with the coder whose token is `token`, if it runs innermost on this thread;
    /// `nil` otherwise.
    @inline(__always)
    static func withCoder<Coder: AnyObject, R>(
        _ token: UnsafeMutableRawPointer, as type: Coder.Type, _ body: (Coder) throws -> R
    ) rethrows -> R? {
        guard let current = pthread_getspecific(key), current == token else { return nil }
        // The coder is alive: `running` is on the stack of this thread and holds it.
        return try Unmanaged<Coder>.fromOpaque(current)._withUnsafeGuaranteedRef(body)
    }
}
