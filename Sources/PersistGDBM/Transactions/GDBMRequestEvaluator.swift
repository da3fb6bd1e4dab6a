import Foundation
import Persist

/// Evaluates requests over scanned records with exactly the foundation's semantics
/// (`DataStorePredicate.matches(_:)`, `DataStoreRequest.compare(_:_:)`, offset and limit), decoding only the
/// attributes the filter and the sort descriptors name.
enum GDBMRequestEvaluator {
    /// Whether `record` passes `filter`, looking attributes up lazily.
    static func matches(_ filter: DataStorePredicate?, _ record: UnsafeRawBufferPointer, codec: GDBMLayoutCodec) throws -> Bool {
        guard let filter else { return true }
        try codec.validate(record)
        var failure: (any Error)?
        var cache: [(name: String, value: Value?)] = []
        let result = filter.matches { name in
            if let cached = cache.first(where: { $0.name == name }) { return cached.value }
            guard failure == nil else { return nil }
            do {
                let value = try codec.lookup(name, in: record)
                cache.append((name, value))
                return value
            } catch {
                failure = error
                return nil
            }
        }
        if let failure { throw failure }
        return result
    }

    /// A matching item waiting to be sorted: its identifier and sort attributes, and its record.
    struct SortEntry {
        var probe: Item
        var record: [UInt8]
    }

    /// `offset + limit` when both fit in an `Int`: how many sorted entries can ever be needed.
    static func bound(of request: DataStoreRequest) -> Int? {
        guard let limit = request.limit else { return nil }
        let (sum, overflow) = request.offset.addingReportingOverflow(limit)
        return overflow ? nil : sum
    }

    /// Sorts entries in the request's order and keeps at most `bound` of them.
    static func sortAndTrim(_ entries: inout [SortEntry], _ request: DataStoreRequest, bound: Int?) {
        entries.sort { request.compare($0.probe, $1.probe) < 0 }
        if let bound, entries.count > bound { entries.removeLast(entries.count - bound) }
    }

    /// The names of the attributes a sorted request orders by, without duplicates.
    static func sortKeys(of request: DataStoreRequest) -> [String] {
        var seen: Set<String> = []
        return request.sortDescriptors.map(\.key).filter { seen.insert($0).inserted }
    }
}
