import Foundation

/// Where a running ``Migration`` is, passed to its progress callback.
///
/// ```swift
/// let report = try migration.run { progress in
///     print("\(progress.itemType): \(progress.itemsInType) of \(progress.expectedInType ?? 0)")
/// }
/// ```
public struct MigrationProgress: Sendable, Hashable {
    /// What the migration is doing.
    public enum Phase: String, Sendable, Hashable {
        /// Checking, before writing, whether the target already holds source items.
        case checking
        /// Copying items.
        case copying
        /// Verifying the target after copying.
        case verifying
        /// Finished: the one report of this phase sums up the run, with ``items`` the items the
        /// copying phase processed and ``elapsed`` the whole run's seconds.
        case finished
    }

    /// What the migration is doing.
    public var phase: Phase
    /// The item type being processed.
    public var itemType: String
    /// Items of this type processed so far in this phase.
    public var itemsInType: Int
    /// Items of this type the source holds, when known.
    public var expectedInType: Int?
    /// Items of every type processed so far in this phase (in the ``Phase/finished`` report, the
    /// items the copying phase processed).
    public var items: Int
    /// Items of every selected type the source holds, when known.
    public var expectedItems: Int?
    /// Seconds since this phase started (in the ``Phase/finished`` report, since the run started).
    public var elapsed: TimeInterval

    /// Items per second over the phase so far.
    public var itemsPerSecond: Double {
        elapsed > 0 ? Double(items) / elapsed : 0
    }

    /// Seconds left at the current rate, when the total is known.
    public var estimatedSecondsLeft: Double? {
        guard let expectedItems, itemsPerSecond > 0 else { return nil }
        return Double(max(expectedItems - items, 0)) / itemsPerSecond
    }
}
