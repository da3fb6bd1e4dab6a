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
/// | `update-<store>` | `updateItems` over every row (`persist-crash-worker update`) | every row in one round; the index on it lists them |
/// | `unique-<store>` | blocks rotating the values of a unique index (`persist-crash-worker unique`) | every row in one round with its value; each value found on one row; duplicates still refused |
/// | `migrate-<new/existing>-<store>` | `persist-migrate` | the target untouched or complete; the source byte-identical; an early exit was 0 |
///
/// `PERSIST_CRASH_KILLS` sets the kills per case (10 by default, at least 15 for the GDBM write
/// blocks); `make torture` runs 200 per case and prints the table of `crash-case` lines.
@Suite("Crash suite: work killed with SIGKILL at random moments keeps every invariant")
struct CrashTests {
    /// How many rounds' items the worker keeps (its `window`).
    static let window: Int64 = 8

    /// Kills the worker's `mode` on a store file of `kind` with `rows` rows at random moments, and
    /// after every kill reopens the store and checks it with `wholeRound`, which returns the last
    /// round the store holds.
    static func killStoreWorker(_ mode: String, _ kind: StoreKind, rows: Int64,
                                sourceLocation: SourceLocation = #_sourceLocation,
                                wholeRound: (any DataStore, CrashCase, _ round: Int) throws -> Int64) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("\(mode).\(kind)")
        let crash = CrashCase("\(mode)-\(kind)", minimumKills: kind == .gdbm ? 15 : 1)
        try crash.killCountingWorker([mode, kind.rawValue, path, String(rows)], maximumDelay: 0.03,
                                     sourceLocation: sourceLocation) { round in
            let store = kind.store(path)
            try store.setup()
            let last = try wholeRound(store, crash, round)
            try store.tearDown()
            return last
        }
        crash.finish(sourceLocation: sourceLocation)
    }
}
