import PersistTestSupport
import Testing

@Suite("StoreSwap example")
struct StoreSwapTests {
    @Test("the first SQLite launch migrates the GDBM store, verified, then deletes it")
    func runs() throws {
        let output = try ProductRunner.run("StoreSwap")
        #expect(output.status == 0, "stderr: \(output.stderr)")
        #expect(output.stdout.split(separator: "\n").map(String.init) == [
            "launch 1 on gdbm: Pizza Place",
            "launch 2 on gdbm: Pizza Place, Noodle Bar",
            "migrated 2 items from GDBM to SQLite (verified); the GDBM file is gone",
            "launch 3 on sqlite: Pizza Place, Noodle Bar, Curry House",
            "launch 4 on sqlite: Pizza Place, Noodle Bar, Curry House, Taco Stand",
            "files: app.sqlite",
        ])
    }
}
