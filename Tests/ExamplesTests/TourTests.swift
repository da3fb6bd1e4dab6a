import PersistTestSupport
import Testing

@Suite("The README's tour")
struct TourTests {
    @Test("runs as the README shows it")
    func runs() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let output = try ProductRunner.run("Tour", in: directory.url)
        #expect(output.status == 0, "stderr: \(output.stderr)")
        #expect(output.stdout == "best: Pizza Place\n")
    }
}
