import Dispatch
import Foundation

/// Calls a migration's progress callback at most about 20 times a second, and at each phase change.
struct MigrationProgressTracker {
    let callback: ((MigrationProgress) -> Void)?
    /// Items of each type to process, when known.
    var expected: [String: Int]?
    /// Items of every type to process, when known.
    var expectedTotal: Int?
    private let start = DispatchTime.now().uptimeNanoseconds
    private var phaseStart = DispatchTime.now().uptimeNanoseconds
    private var lastReport: UInt64 = 0
    /// Items the copying phase processed, for the finished report.
    private var copied = 0
    private var current = MigrationProgress(phase: .checking, itemType: "", itemsInType: 0, expectedInType: nil,
                                            items: 0, expectedItems: nil, elapsed: 0)

    init(callback: ((MigrationProgress) -> Void)?) {
        self.callback = callback
    }

    var elapsed: TimeInterval { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }

    mutating func begin(_ phase: MigrationProgress.Phase) {
        guard callback != nil else { return }
        if current.items > 0 || phase == .finished { report() }
        if current.phase == .copying { copied = current.items }
        phaseStart = DispatchTime.now().uptimeNanoseconds
        current.phase = phase
        current.items = 0
        current.itemsInType = 0
        current.itemType = ""
        current.expectedItems = expectedTotal
        if phase == .finished {
            // The last report sums up the run: the items copied, over the whole run's time.
            phaseStart = start
            current.items = copied
            report()
        }
    }

    /// Counts `count` more items of `itemType` processed in the current phase.
    mutating func advance(_ itemType: String, by count: Int = 1) {
        guard callback != nil else { return }
        if itemType != current.itemType {
            current.itemType = itemType
            current.itemsInType = 0
            current.expectedInType = expected?[itemType]
        }
        current.itemsInType += count
        current.items += count
        let now = DispatchTime.now().uptimeNanoseconds
        if now - lastReport >= 50_000_000 {
            lastReport = now
            report()
        }
    }

    private mutating func report() {
        current.elapsed = Double(DispatchTime.now().uptimeNanoseconds - phaseStart) / 1e9
        callback?(current)
    }
}
