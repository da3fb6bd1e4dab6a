import Foundation
import Persist

/// The checks of the predicate fuzz target (`persist-predicate-fuzz`), shared with the tests that
/// replay its saved inputs.
///
/// An input's first byte picks one of three ``Mode``s; the remaining bytes drive a
/// ``FuzzInputGenerator`` that makes every choice of ``RandomData`` (in ``RandomData/Variety/anything``)
/// or, for ``Mode/valueDecoding``, are decoded as they are. Each mode checks `Persist` against
/// ``ReferenceEvaluator`` and against the laws its semantics promise, and reports every violation
/// it sees as a line of text naming the values involved.
///
/// ```swift
/// let input = [UInt8](try Data(contentsOf: savedInput))
/// #expect(PredicateFuzzing.findings(in: input) == [])
/// ```
public enum PredicateFuzzing {
    /// What an input exercises, chosen by its first byte (modulo the number of modes).
    public enum Mode: UInt8, Sendable, CaseIterable {
        /// Random items and a random request: `DataStorePredicate.matches` and `DataStoreRequest.apply(to:)`
        /// must give exactly what ``ReferenceEvaluator`` gives.
        case requests
        /// Three random values: the sort order must agree with the reference and be a total order,
        /// every predicate operator on each pair must agree with the reference, and values must
        /// round-trip through `BinaryValueCoding`, equal values encoding alike.
        case values
        /// The remaining bytes as an encoded value: whatever `BinaryValueCoding.decode` accepts
        /// must re-encode to bytes that decode to an equal value and re-encode identically.
        case valueDecoding
    }

    /// At most this many items per input in ``Mode/requests``.
    public static let maximumItemCount = 12

    /// The mode of `input`: its first byte modulo the number of modes (``Mode/requests`` when empty).
    public static func mode(of input: [UInt8]) -> Mode {
        guard let first = input.first else { return .requests }
        return Mode(rawValue: first % UInt8(Mode.allCases.count)) ?? .requests
    }

    /// Every violated property for `input`, one description each; empty when everything holds.
    public static func findings(in input: [UInt8]) -> [String] {
        let body = input.dropFirst()
        var findings: [String] = []
        switch mode(of: input) {
        case .requests: checkRequests(body, into: &findings)
        case .values: checkValues(body, into: &findings)
        case .valueDecoding: checkDecoding(Array(body), into: &findings)
        }
        return findings
    }

    /// Starting inputs for the fuzzer: a few of each mode, drawn from a fixed seed, and canonical
    /// encodings of edge-case values for ``Mode/valueDecoding``.
    public static func seeds() -> [[UInt8]] {
        var generator = SeededGenerator(seed: 2_026)
        var seeds: [[UInt8]] = []
        for mode in [Mode.requests, .values] {
            for length in [0, 16, 64, 256, 512] {
                seeds.append([mode.rawValue] + (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            }
        }
        var random = RandomData(generator: generator, variety: .anything)
        let values: [Value] = RandomPools.schema.flatMap(\.pool) + RandomPools.numericEdges + (0..<20).map { _ in random.value() }
        for value in values {
            seeds.append([Mode.valueDecoding.rawValue] + BinaryValueCoding.encode(value))
        }
        return seeds
    }

    static func describe(_ request: DataStoreRequest) -> String {
        let sort = request.sortDescriptors.map { "\($0.key) \($0.ascending ? "asc" : "desc")" }
        return "type \(request.itemType), filter \(request.filter.map { "\($0)" } ?? "none"), sort \(sort), "
            + "offset \(request.offset), limit \(request.limit.map(String.init) ?? "none"), ordering \(request.ordering)"
    }
}
