import Foundation
import Persist

extension PredicateFuzzing {
    /// ``Mode/requests``: the filter item by item, then the whole request, against the reference.
    static func checkRequests(_ bytes: ArraySlice<UInt8>, into findings: inout [String]) {
        var random = RandomData(generator: FuzzInputGenerator(bytes), variety: .anything)
        let items = random.items(upTo: maximumItemCount)
        let request = random.request(itemCount: items.count)
        if let filter = request.filter {
            for item in items where filter.matches(item) != ReferenceEvaluator.holds(filter, item) {
                findings.append("DataStorePredicate.matches gives \(filter.matches(item)) for \(filter) on \(item); the reference disagrees")
            }
        }
        let candidates = items.filter { $0.itemType == request.itemType }
        let actual = request.apply(to: candidates)
        let expected = ReferenceEvaluator.evaluate(request, over: items)
        switch request.ordering {
        case .sorted:
            if actual != expected {
                findings.append("""
                    apply(to:) differs from the reference for \(describe(request)) over \(candidates)
                      expected \(expected.map(\.id))
                      actual   \(actual.map(\.id))
                    """)
            }
        case .unspecified:
            let matching = Set(candidates.filter { item in request.filter.map { ReferenceEvaluator.holds($0, item) } ?? true })
            if actual.count != expected.count || Set(actual).count != actual.count || !Set(actual).isSubset(of: matching) {
                findings.append("""
                    apply(to:) in unspecified order returns other items than the reference for \(describe(request)) \
                    over \(candidates): expected \(expected.count) of \(matching.map(\.id)), actual \(actual.map(\.id))
                    """)
            }
        }
    }
}
