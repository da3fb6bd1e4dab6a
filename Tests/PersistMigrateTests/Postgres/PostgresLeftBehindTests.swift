import Foundation
import PersistTestSupport
import Testing

@Suite("persist-migrate names what a copy of a PostgreSQL source does not carry")
struct PostgresLeftBehindTests {
    @Test("defaults, serial and identity columns, CHECK, foreign keys, domain checks, partial, expression and DESC indexes, triggers and views are notes")
    func leftBehindIsReported() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        let s = pg.schema
        _ = try pg.sql("""
            CREATE SCHEMA \(s);
            CREATE DOMAIN \(s).posint AS integer CHECK (VALUE > 0);
            CREATE TABLE \(s).auth_user (id serial PRIMARY KEY, username varchar(150) NOT NULL UNIQUE,
              is_active boolean NOT NULL DEFAULT true, age integer CHECK (age >= 0), n bigint GENERATED ALWAYS AS IDENTITY,
              p \(s).posint);
            CREATE TABLE \(s).posts (id bigint PRIMARY KEY, user_id integer NOT NULL REFERENCES \(s).auth_user (id) ON DELETE CASCADE,
              author varchar(150) REFERENCES \(s).auth_user (username),
              title text NOT NULL, created_at timestamp NOT NULL, published integer NOT NULL);
            CREATE INDEX posts_created_desc ON \(s).posts (created_at DESC);
            CREATE INDEX posts_published ON \(s).posts (user_id) WHERE published = 1;
            CREATE INDEX posts_lower_title ON \(s).posts (lower(title));
            CREATE INDEX posts_user ON \(s).posts (user_id);
            CREATE FUNCTION \(s).touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
            CREATE TRIGGER posts_touch BEFORE UPDATE ON \(s).posts FOR EACH ROW EXECUTE FUNCTION \(s).touch();
            CREATE VIEW \(s).active_users AS SELECT id FROM \(s).auth_user WHERE is_active;
            CREATE TABLE \(s).plain (id integer PRIMARY KEY, checked text);
            INSERT INTO \(s).auth_user (username, age, p) VALUES ('alice', 30, 1);
            INSERT INTO \(s).plain VALUES (1, 'x');
            """)
        let expected = [
            "the source's table \"active_users\" was not copied: a view, whose definition a copy does not carry",
            "the copy of \"auth_user\" does not carry the DEFAULT of id, the DEFAULT of is_active, the identity of n, "
                + "the domain constraints of p, the constraint auth_user_age_check CHECK ((age >= 0)) (see",
            // posts_user_id_fkey, to auth_user's key, is a relation; one to other columns is not.
            "the copy of \"posts\" does not carry the constraint posts_author_fkey FOREIGN KEY (author) REFERENCES "
                + "auth_user(username), DESC in the index posts_created_desc, the index on expressions "
                + "posts_lower_title, the partial index posts_published, the trigger posts_touch (see",
        ]
        let text = try Tool.run([pg.url, "copy.sqlite", "--progress", "never"], in: directory.url)
        #expect(text.status == 0, "\(text.stderr)")
        for note in expected {
            #expect(text.stdout.contains("note: " + note), "\(text.stdout)")
        }
        #expect(!text.stdout.contains("\"plain\""), "a table with nothing left behind gets no note: \(text.stdout)")
        let json = try Tool.run([pg.url, "copy.gdbm", "--json"], in: directory.url)
        #expect(json.status == 0, "\(json.stderr)")
        let summary = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let notes = summary?["notes"] as? [String] ?? []
        for note in expected {
            #expect(notes.contains { $0.hasPrefix(note) }, "\(json.stdout)")
        }
    }

    @Test("a DEFERRABLE PRIMARY KEY or UNIQUE constraint, which the copy checks at once, is a note")
    func deferrableIsReported() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        let s = pg.schema
        _ = try pg.sql("""
            CREATE SCHEMA \(s);
            CREATE TABLE \(s).items (id integer PRIMARY KEY DEFERRABLE, pos integer UNIQUE DEFERRABLE INITIALLY DEFERRED,
              code text UNIQUE);
            INSERT INTO \(s).items VALUES (1, 1, 'a'), (2, 2, 'b');
            """)
        let run = try Tool.run([pg.url, "copy.sqlite", "--progress", "never"], in: directory.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("note: the copy of \"items\" does not carry DEFERRABLE in the constraint items_pkey, "
                                        + "DEFERRABLE in the constraint items_pos_key (see"), "\(run.stdout)")
        let copy = try RawDatabase(directory.path("copy.sqlite"))
        defer { copy.close() }
        // The UNIQUE constraints; the key, declared int4 (PostgreSQL's integer), has SQLite's own index.
        #expect(try copy.rows("SELECT count(*) FROM pragma_index_list('items') WHERE \"unique\" = 1 AND origin = 'u'")
            == [[.integer(2)]])
    }

    @Test("an index's method, operator class, collation, NULLS FIRST, INCLUDE and NULLS NOT DISTINCT, which the copy leaves out, are notes")
    func indexDetailsAreReported() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        let s = pg.schema
        _ = try pg.sql("""
            CREATE SCHEMA \(s);
            CREATE TABLE \(s).t (id integer PRIMARY KEY, name text, tags text[], n integer, UNIQUE NULLS NOT DISTINCT (n));
            CREATE INDEX t_gin ON \(s).t USING gin (tags);
            CREATE INDEX t_hash ON \(s).t USING hash (name);
            CREATE INDEX t_coll ON \(s).t (name COLLATE "C");
            CREATE INDEX t_ops ON \(s).t (name text_pattern_ops);
            CREATE INDEX t_nf ON \(s).t (n NULLS FIRST);
            CREATE INDEX t_inc ON \(s).t (n) INCLUDE (name);
            CREATE INDEX t_plain ON \(s).t (name, n);
            INSERT INTO \(s).t VALUES (1, 'a', NULL, NULL), (2, 'b', NULL, 2);
            """)
        let expected = "note: the copy of \"t\" does not carry NULLS FIRST in the index t_nf, NULLS NOT DISTINCT in the index "
            + "t_n_key, the INCLUDE columns of the index t_inc, the collation of the index t_coll, the method gin of the index "
            + "t_gin, the method hash of the index t_hash, the operator class of the index t_ops (see"
        let run = try Tool.run([pg.url, "copy.sqlite", "--progress", "never"], in: directory.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(expected), "\(run.stdout)")
        #expect(!run.stdout.contains("t_plain"), "\(run.stdout)")
    }
}
