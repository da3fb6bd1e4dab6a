import Foundation

/// The script a user would write instead of persist-migrate: `dbm.gnu` to read the GDBM file,
/// `sqlite3` with `executemany` to fill a keyed table, run as a process of its own.
enum PythonCopyScript {
    static let source = """
        import dbm.gnu, sqlite3, sys
        source = dbm.gnu.open(sys.argv[1], 'r')
        target = sqlite3.connect(sys.argv[2])
        target.execute('CREATE TABLE pairs (key BLOB PRIMARY KEY, value BLOB)')
        with target:
            target.executemany('INSERT INTO pairs VALUES (?, ?)', ((key, source[key]) for key in source.keys()))
        target.close()
        source.close()

        """

    /// A Python 3 with `dbm.gnu` (Debian: the python3-gdbm package), or `nil` with the reason.
    static func interpreter() -> (path: String?, note: String) {
        for candidate in ["/usr/bin/python3", "python3"] {
            guard let result = try? ChildProcessTimer.run(candidate, ["-c", "import dbm.gnu, sqlite3"]) else { continue }
            if result.status == 0 { return (candidate, "") }
        }
        return (nil, "no Python 3 with dbm.gnu here (install python3-gdbm); the Python comparison was skipped")
    }

    /// Runs the script on `source`, writing `target`; the seconds it took as a process.
    static func run(python: String, source: String, target: String, in directory: URL) throws -> Double {
        let script = directory.appendingPathComponent("copy-with-dbm-gnu.py")
        try Self.source.write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        try? FileManager.default.removeItem(atPath: target)
        let result = try ChildProcessTimer.run(python, [script.path, source, target])
        guard result.status == 0 else { throw BenchmarkError("the Python script failed: \(result.standardError)") }
        try? FileManager.default.removeItem(atPath: target)
        return result.seconds
    }
}
