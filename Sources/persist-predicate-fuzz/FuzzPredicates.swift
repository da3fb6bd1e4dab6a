// The fuzz target of the predicate evaluator, the sort order and the value encoding.
//
// Each input drives `PredicateFuzzing` (in PersistConformance, where the tests that replay saved
// inputs call the same checks): random items, requests and values made from the input's bytes are
// checked against `ReferenceEvaluator` and the laws of the semantics. A finding prints its details
// and aborts, which libFuzzer saves as a crashing input. Run it with `scripts/fuzz.sh predicates`.

import PersistConformance
import PersistFuzzSupport

@main
enum PredicateFuzz {
    static func main() throws {
        try FuzzDriver.run(seeds: PredicateFuzzing.seeds) { data, size in
            let input = FuzzDriver.bytes(data, size)
            let findings = PredicateFuzzing.findings(in: input)
            if !findings.isEmpty {
                FuzzFinding.report(findings.joined(separator: "\n") + "\ninput: \(input)")
            }
            return 0
        }
    }
}
