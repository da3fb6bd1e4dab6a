import PersistTestSupport
import Testing

@Suite("The README's tour")
struct TourTests {
    @Test("runs as the README shows it: read, query, a scratch edit merged")
    func runs() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let output = try ProductRunner.run("Tour", in: directory.url)
        #expect(output.status == 0, "stderr: \(output.stderr)")
        #expect(output.stdout == "best: Pizza Place\nafter the review: 5, \"Wood-fired, worth the wait\"\n")
        #expect(output.stderr.isEmpty, "a store without a logger must stay quiet: \(output.stderr)")
    }

    @Test("runs inside an async function as the README shows it")
    func runsAsync() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let output = try ProductRunner.run("TourAsync", in: directory.url)
        #expect(output.status == 0, "stderr: \(output.stderr)")
        #expect(output.stdout == "best: Pizza Place\n")
        #expect(output.stderr.isEmpty)
    }
}
