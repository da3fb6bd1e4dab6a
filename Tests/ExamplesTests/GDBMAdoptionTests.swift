import PersistTestSupport
import Testing

@Suite("GDBMAdoption example")
struct GDBMAdoptionTests {
    @Test("a legacy GDBM file used in place through the raw layout")
    func runs() throws {
        let output = try ProductRunner.run("GDBMAdoption")
        #expect(output.status == 0, "stderr: \(output.stderr)")
        #expect(output.stdout.split(separator: "\n").map(String.init) == [
            "before: a1b2 is ada",
            "during: c3d4 is gone, e5f6 is cleo",
            "during: 2 active sessions",
            "legacy code sees e5f6 as cleo",
        ])
    }
}
