import Persist
import PersistConformance
import Testing

@Suite("A child that passed unique values round merges into an adopted SQLite table whose columns cannot be empty")
struct SQLiteChildSwapTests {
    @Test("swapped NOT NULL UNIQUE text and a rotated NOT NULL UNIQUE CHECKed integer merge as the parent takes them in a block")
    func notNullCycles() throws {
        try withFileStore(creatingWith: """
            CREATE TABLE person (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE);
            INSERT INTO person VALUES (1, 'a@x'), (2, 'b@x'), (3, 'c@x');
            CREATE TABLE line (id INTEGER PRIMARY KEY, position INTEGER NOT NULL UNIQUE CHECK (position > 0), text TEXT);
            INSERT INTO line VALUES (1, 1, 'one'), (2, 2, 'two'), (3, 3, 'three');
            """) { store, _ in
            try NotNullCycleScenario.run(on: store)
        }
    }
}
