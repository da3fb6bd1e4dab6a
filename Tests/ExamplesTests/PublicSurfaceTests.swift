import Testing

@Suite("The public surface")
struct PublicSurfaceTests {
    @Test("code outside the package cannot reach the engine of an open store")
    func engineIsSealed() throws {
        let output = try Snippets.typecheck("SealedEngineSnippet")
        #expect(output.status != 0, "the snippet type-checked, so the engine is reachable from outside")
        let errors = Snippets.diagnostics(output, "error")
        // One error per function of the snippet, each about access, none about anything else.
        #expect(errors.count == 4, "errors: \(output.stderr)")
        #expect(errors.allSatisfy { $0.contains("inaccessible due to") }, "errors: \(output.stderr)")
    }

    @Test("a wrapper written outside the package plugs in through the public extension point")
    func wrappersPlugIn() throws {
        let output = try Snippets.typecheck("OutsideWrapperSnippet")
        #expect(output.status == 0, "swiftc: \(output.stderr)")
        #expect(Snippets.diagnostics(output, "warning").isEmpty, "warnings: \(output.stderr)")
    }
}
