import Testing
import PersistTestSupport

@Suite("TodoList example")
struct TodoListTests {
    @Test("generated identifiers, a unique index, a live query, set-based writes and aggregates on SQLite")
    func runs() throws {
        let output = try ProductRunner.run("TodoList")
        #expect(output.status == 0, "stderr: \(output.stderr)")
        #expect(output.stdout.split(separator: "\n").map(String.init) == [
            "indexes: [\"title\"] unique, [\"done\"]",
            "first identifier: 1, all: [1, 2, 3]",
            "a second 'Buy milk': uniqueViolation, still 3 to-dos",
            "open: Buy milk, Call the bank, Book the dentist",
            "marked done: 1",
            "open: Call the bank, Book the dentist",
            "removed: 1",
            "flagged late: 1",
            "open: Call the bank, Book the dentist",
            "longest: 20 min, total: 35 min, mean: 17.5 min",
            "last due: Book the dentist's",
        ])
    }
}
