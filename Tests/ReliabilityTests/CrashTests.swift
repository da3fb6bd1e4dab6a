import Foundation
import Persist
import PersistTestSupport
import Testing

/// The crash suite: a worker process (or `persist-migrate`) does work, is killed with SIGKILL at
/// random moments, and the store is reopened and checked after every kill.
///
/// | case | work | invariants |
/// |---|---|---|
/// | `blocks-<store>-<durability>` | write blocks (`persist-crash-worker blocks`) | no torn block; every block whose `writeSync` returned is there |
/// | `merge-<store>` | child-store merges (`persist-crash-worker merge`) | every round's batch whole or absent; every reported round there |
/// | `migrate-<new/existing>-<store>` | `persist-migrate` | the target untouched or complete; the source byte-identical; an early exit was 0 |
///
/// `PERSIST_CRASH_KILLS` sets the kills per case (10 by default, at least 15 for the GDBM write
/// blocks); `make torture` runs 200 per case and prints the table of `crash-case` lines.
@Suite("Crash suite: work killed with SIGKILL at random moments keeps every invariant")
struct CrashTests {
    /// How many rounds' items the worker keeps (its `window`).
    static let window: Int64 = 8
}
