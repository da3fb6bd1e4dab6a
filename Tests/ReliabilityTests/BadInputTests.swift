import Testing

// The bad-input suite. Each case builds its files in a directory of its own, acts on them through
// the library or persist-migrate, and checks the error code (or exit status) and that the message
// names the file; then every file in the directory must be byte-identical and nothing may have
// appeared but what the case creates on purpose. (SQLite creates an empty -wal and a -shm beside a
// database in WAL mode that it opens read-only, and cannot remove them; those alone are allowed.)
//
// Cases:
//   The library (LibraryBadInputs), opening read-write and read-only unless a case says otherwise:
//    1-2. sqlite, gdbm: a missing file, not to be created: notFound, and nothing is created
//    3-4. sqlite, gdbm: a file in a missing folder: notFound
//    5-6. sqlite, gdbm: a directory: invalidArgument
//      7. gdbm: an empty file: corrupt, not made a database
//      8. sqlite: an empty file: an empty database (SQLite's rule); read-only it stays empty, writes are readOnly
//   9-10. sqlite, gdbm: random bytes: corrupt (SQLITE_NOTADB; GDBM's bad magic number)
//     11. sqlite: a truncated database: corrupt (SQLITE_CORRUPT)
//  12-13. gdbm: a file truncated inside its header, and inside its bucket directory: corrupt
//     14. sqlite: a GDBM file: corrupt (SQLITE_NOTADB)
//     15. gdbm: an SQLite database: corrupt, saying it is SQLite
//     16. gdbm: a foreign GDBM file in the native layout: corrupt, pointing to the raw layout
//  17-18. gdbm: a file another process writes (locked for writers and readers), or reads (locked for writers)
//  19-20. sqlite, gdbm: a read-only file opened for writing: readOnly
//  21-22. gdbm, sqlite: an undecodable record (value): corrupt when read, naming the item
//     23. gdbm: a record of a newer format version: unsupported when read, naming the item
//     24. gdbm: a file of a newer format version: unsupported
//     25. gdbm: a damaged format record: corrupt
//     26. sqlite: a column kind of a newer version: unsupported
//  27-28. sqlite, gdbm: a value nested deeper than BinaryValueCoding.maximumDepth, as an item and
//         through a mutable item: invalidArgument naming the store, nothing written
//     29. in-memory, and children of SQLite and GDBM stores: the same (exactly the maximum is fine)
//  30-31. sqlite, gdbm: a 64 MiB value round-trips
//   persist-migrate (ToolBadInputs):
//  32-37. --from/--to a kind without a path, kind: without a path, and an unknown kind: 64
//  38-47. sqlite and gdbm sources: missing, a directory, random bytes, a file of the other kind,
//         truncated: 66
//     48. gdbm source: an empty file: 66
//     49. sqlite source: an empty file, which SQLite would open as an empty database, is no store: 66
//     50. gdbm source held by another process: 75
//     51. gdbm source: an undecodable record: 65
//     52. gdbm source: a record of a newer format version: 65
//     53. gdbm source: a file of a newer format version: 66
//  54-59. sqlite and gdbm targets: a read-only file, a directory, random bytes: 73
//     60. gdbm target held by another process: 75
//  61-62. every Value edge case (EdgeValues: NaN, ±inf, -0.0, Int64.min/max, NUL and astral-plane
//         strings, empty strings and bytes, deep nesting), gdbm to sqlite and back, and sqlite to gdbm and back: 0
//     63. hostile type and attribute names (HostileNames), gdbm to sqlite and back: 0
//     64. a 64 MiB value, gdbm to sqlite and back: 0
//
// Elsewhere, in more detail: SQLite's own bad files and conditions (PersistSQLiteTests/ErrorTests),
// GDBM recovery and damaged records (PersistGDBMTests/BadFileTests), locking between processes
// (PersistGDBMTests/LockingTests), the tool's exit matrix and its other statuses (PersistMigrateTests/ExitMatrixTests,
// ExitCodeTests, DetectionTests, InterruptTests),
// and every Value edge case, hostile names and a 16 MiB value in every store (PersistConformance).

@Suite("Bad-input suite: every bad input gets a clear error and changes nothing")
struct BadInputTests {
    static let cases = LibraryBadInputs.cases + ToolBadInputs.cases

    @Test("bad input", arguments: cases)
    func badInput(_ testCase: BadInputCase) throws {
        try testCase.run()
    }

    @Test("the cases have distinct names, and the list at the top of this file counts them all")
    func caseNames() {
        #expect(Set(Self.cases.map(\.name)).count == Self.cases.count)
        #expect(Self.cases.count == 64, "update the list of cases at the top of BadInputTests.swift")
    }
}
