import Testing
import PersistTestSupport

@Suite("Repository example")
struct RepositoryTests {
    @Test("reads memory first, then disk, refills memory, and writes through")
    func runs() throws {
        let output = try ProductRunner.run("Repository")
        #expect(output.status == 0, "stderr: \(output.stderr)")
        #expect(output.stdout.split(separator: "\n").map(String.init) == [
            "getById: The Hobbit (from disk)",
            "getAll: The Hobbit, The Lord of the Rings (from disk)",
            "getAll again: The Hobbit, The Lord of the Rings (from memory)",
            "after insert, memory holds 3 and disk holds 3 books",
            "after deleteById: The Hobbit, The Silmarillion (from memory)",
            "lastSourceOnly getById: The Silmarillion (from disk)",
        ])
    }
}
