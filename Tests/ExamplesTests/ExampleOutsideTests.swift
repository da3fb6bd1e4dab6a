import Foundation
import Testing

/// The examples are targets of this package, so the compiler lets them use its `package`
/// declarations; the guides quote them, and users copy them into packages of their own. This
/// compiles each example's sources as code outside the package would: against the built modules,
/// without the package's name, so that only the public API is in reach.
@Suite("The examples compile outside the package")
struct ExampleOutsideTests {
    /// Every example, by its folder in `Examples/`.
    static var examples: [String] {
        let folder = GuideCodeTests.root.appendingPathComponent("Examples")
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test("the example uses only public API", arguments: examples)
    func compilesOutside(_ example: String) throws {
        let folder = GuideCodeTests.root.appendingPathComponent("Examples/\(example)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
            .sorted().map { folder.appendingPathComponent($0) }
        try #require(!files.isEmpty)
        // An example without `main.swift` is a library or has an `@main` type.
        let library = files.allSatisfy { $0.lastPathComponent != "main.swift" } ? ["-parse-as-library"] : []
        let output = try Snippets.typecheck(files: files, arguments: library + ["-module-name", "Outside\(example)"],
                                            flowChecks: true)
        #expect(output.status == 0, "\(example): swiftc:\n\(Snippets.diagnostics(output, "error").joined(separator: "\n"))")
    }
}
