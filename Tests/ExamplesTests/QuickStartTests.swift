import Foundation
import Testing
import PersistTestSupport

@Suite("QuickStart example")
struct QuickStartTests {
    @Test("runs the foundation walkthrough and prints each step")
    func runs() throws {
        let output = try ProductRunner.run("QuickStart")
        #expect(output.status == 0, "stderr: \(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(lines.first?.hasPrefix("created Restaurant \"") == true)
        #expect(Array(lines.dropFirst()) == [
            "found \"Pizza Place\" rated 4",
            "1 open restaurant(s) rated 3 or more",
            "asynchronous delete finished: success(0)",
            "0 restaurant(s) left",
        ])
    }

    @Test("the foundation issue's snippet type-checks exactly as written")
    func snippetTypeChecks() throws {
        let output = try Snippets.typecheck("FoundationIssueSnippet")
        #expect(output.status == 0, "swiftc: \(output.stderr)")
        // Swift picks the synchronous read for `try await store.read` in a top-level `let`; that
        // warning is the only diagnostic.
        let warnings = Snippets.diagnostics(output, "warning")
        #expect(warnings.count == 1 && warnings.first?.contains("no 'async' operations occur within 'await'") == true,
                "diagnostics: \(output.stderr)")
        #expect(!output.stderr.contains("error:"))
    }
}
