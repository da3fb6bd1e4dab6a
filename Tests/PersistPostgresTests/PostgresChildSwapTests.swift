import Persist
import PersistConformance
import Testing

@Suite("A child that passed unique values round merges into an adopted PostgreSQL table whose columns cannot be empty")
struct PostgresChildSwapTests {
    @Test("swapped NOT NULL UNIQUE text and a rotated NOT NULL UNIQUE CHECKed integer merge as the parent takes them in a block")
    func notNullCycles() throws {
        try withPostgresStore(creatingWith: """
            CREATE TABLE person (id serial PRIMARY KEY, email text NOT NULL UNIQUE);
            INSERT INTO person (email) VALUES ('a@x'), ('b@x'), ('c@x');
            CREATE TABLE line (id serial PRIMARY KEY, position integer NOT NULL UNIQUE CHECK (position > 0), text text);
            INSERT INTO line (position, text) VALUES (1, 'one'), (2, 'two'), (3, 'three');
            """) { store, _ in
            try NotNullCycleScenario.run(on: store)
        }
    }
}
