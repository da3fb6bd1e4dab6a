import Foundation
import PersistTestSupport
import Testing

@Suite("Running products")
struct ProductRunnerTests {
    /// A compiler reporting on many files writes more than a pipe holds to standard error; the
    /// runner used to wait for standard output's end while the process waited for room.
    @Test("a process writing more than a pipe's buffer to standard error finishes")
    func largeStandardError() throws {
        let output = try ProductRunner.run("/bin/sh", ["-c", "yes e | head -c 200000 >&2; echo done"])
        #expect(output.status == 0)
        #expect(output.stdout == "done\n")
        #expect(output.stderr.count == 200_000)
    }
}
