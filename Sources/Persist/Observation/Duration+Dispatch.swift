extension Duration {
    /// The duration in whole nanoseconds for a dispatch timer or delay: at least 1 ms (a poll or a
    /// retry of a live query never spins), and `Int.max` for durations too long to count.
    var dispatchNanoseconds: Int {
        let (seconds, attoseconds) = components
        let whole = Int(clamping: seconds).multipliedReportingOverflow(by: 1_000_000_000)
        guard !whole.overflow else { return Int.max }
        let (total, overflow) = whole.partialValue.addingReportingOverflow(Int(attoseconds / 1_000_000_000))
        return overflow ? Int.max : max(total, 1_000_000)
    }
}
