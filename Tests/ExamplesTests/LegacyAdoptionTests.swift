import PersistTestSupport
import Testing

@Suite("LegacyAdoption example")
struct LegacyAdoptionTests {
    @Test("the same file before, during and after adoption")
    func runs() throws {
        let output = try ProductRunner.run("LegacyAdoption")
        #expect(output.status == 0, "stderr: \(output.stderr)")
        #expect(output.stdout.split(separator: "\n").map(String.init) == [
            "before: Call the bank",
            "during: Renew passport",
            "during, legacy code sees: Renew passport",
            "after: Book the dentist",
            "after: 4 to-dos, 3 done",
        ])
    }
}
