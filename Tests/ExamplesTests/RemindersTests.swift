import Testing
import PersistTestSupport

@Suite("Reminders example")
struct RemindersTests {
    @Test("the DAO commits, rolls back and reports through completion handlers")
    func runs() throws {
        let output = try ProductRunner.run("Reminders")
        #expect(output.status == 0, "stderr: \(output.stderr)")
        #expect(output.stdout.split(separator: "\n").map(String.init) == [
            "insert 'Buy milk': done",
            "insert 'Call the bank': done",
            "insert a draft, then roll back: done",
            "reminders: Buy milk, Call the bank",
            "complete 'Buy milk': done",
            "reminders: Buy milk (done), Call the bank",
            "rename 'Call the bank': done",
            "retrieving an unknown reminder gives nothing",
            "retrieve an unknown reminder: done",
            "reminders: Buy milk (done), Call the bank about the mortgage",
        ])
    }
}
