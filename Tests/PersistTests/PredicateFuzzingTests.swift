import Foundation
import Persist
import PersistConformance
import Testing

/// The predicate fuzz target's checks, run on the inputs it once crashed on, on its seeds, and on
/// inputs from a fixed seed, so that every `swift test` repeats a little of the fuzzing.
@Suite("Predicate fuzzing")
struct PredicateFuzzingTests {
    /// The saved inputs, by file name: every input that once made `persist-predicate-fuzz` crash.
    static let savedInputs: [(name: String, bytes: [UInt8])] = {
        guard let folder = Bundle.module.url(forResource: "FuzzInputs/predicates", withExtension: nil),
              let files = try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        else { return [] }
        return files.sorted { $0.lastPathComponent < $1.lastPathComponent }.compactMap { file in
            (try? Data(contentsOf: file)).map { (file.lastPathComponent, [UInt8]($0)) }
        }
    }()

    @Test("inputs the fuzzer once crashed on now pass every check")
    func savedInputsPass() {
        #expect(!Self.savedInputs.isEmpty, "the saved inputs are missing from the test bundle")
        for (name, bytes) in Self.savedInputs {
            #expect(PredicateFuzzing.findings(in: bytes) == [], "\(name)")
        }
    }

    @Test("the seeds pass every check and cover every mode")
    func seedsPass() {
        let seeds = PredicateFuzzing.seeds()
        #expect(Set(seeds.map(PredicateFuzzing.mode(of:))) == Set(PredicateFuzzing.Mode.allCases))
        for seed in seeds {
            #expect(PredicateFuzzing.findings(in: seed) == [], "\(seed)")
        }
    }

    @Test("3,000 inputs from a fixed seed pass every check")
    func seededInputsPass() {
        var generator = SeededGenerator(seed: 31)
        for number in 0..<3_000 {
            let length = Int.random(in: 0...400, using: &generator)
            let input = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let findings = PredicateFuzzing.findings(in: input)
            #expect(findings == [], "input #\(number): \(input)")
            if !findings.isEmpty { break }
        }
    }
}
