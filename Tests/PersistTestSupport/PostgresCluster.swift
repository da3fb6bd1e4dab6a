import Foundation

/// A PostgreSQL server of a test's own, for tests that stop, kill or restart it (which the shared
/// server of the run, `PERSIST_POSTGRES_URL`, must never be): `scripts/postgres-cluster.sh start`
/// in a temporary directory, stopped and removed by ``stop()``.
///
/// ```swift
/// let cluster = try PostgresCluster.start()
/// defer { cluster.stop() }
/// try cluster.stopImmediately()   // pg_ctl stop -m immediate: a crash of the server
/// try cluster.restart()
/// ```
public final class PostgresCluster: Sendable {
    /// The cluster's directory (data in `data/`, the log in `log`).
    public let directory: URL
    /// `postgresql://postgres@127.0.0.1:PORT/persist`.
    public let url: String
    /// The port it listens on.
    public let port: Int

    /// The repository's root, found from this file's path.
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    public struct Failure: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    private init(directory: URL, url: String, port: Int) {
        self.directory = directory
        self.url = url
        self.port = port
    }

    /// Starts a new cluster (initdb as the `postgres` user when run as root, a free loopback port).
    public static func start() throws -> PostgresCluster {
        let directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("persist-test-cluster-\(UUID().uuidString)")
        let script = repository.appendingPathComponent("scripts/postgres-cluster.sh").path
        let output = try run("/bin/bash", [script, "start", directory.path])
        guard output.status == 0, let url = try? String(contentsOf: directory.appendingPathComponent("url"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines),
              let port = Int((try? String(contentsOf: directory.appendingPathComponent("port"), encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") else {
            throw Failure(description: "could not start a PostgreSQL cluster of the test's own: \(output.error)")
        }
        return PostgresCluster(directory: directory, url: url, port: port)
    }

    /// Stops the server and removes its directory.
    public func stop() {
        let script = Self.repository.appendingPathComponent("scripts/postgres-cluster.sh").path
        _ = try? Self.run("/bin/bash", [script, "stop", directory.path])
    }

    /// `pg_ctl stop -m immediate`: every server process quits at once, as in a crash; the next
    /// start recovers from the write-ahead log.
    public func stopImmediately() throws {
        try pgctl(["stop", "-m", "immediate", "-w"])
    }

    /// Starts the server again on the same port and data.
    public func startAgain() throws {
        try pgctl(["start", "-w", "-t", "60", "-l", directory.appendingPathComponent("log").path])
    }

    /// A fast restart: sessions are ended, the data stays.
    public func restart() throws {
        try pgctl(["restart", "-m", "fast", "-w", "-t", "60", "-l", directory.appendingPathComponent("log").path])
    }

    private func pgctl(_ arguments: [String]) throws {
        let pgctl = Self.binaryDirectory + "/pg_ctl"
        let full = ["-D", directory.appendingPathComponent("data").path] + arguments
        let output = getuid() == 0
            ? try Self.run("/usr/sbin/runuser", ["-u", "postgres", "--", pgctl] + full)
            : try Self.run(pgctl, full)
        if output.status != 0 {
            throw Failure(description: "pg_ctl \(arguments.joined(separator: " ")) failed: \(output.error)")
        }
    }

    /// Where `pg_ctl` is: `PERSIST_POSTGRES_BINDIR`, else the newest `/usr/lib/postgresql/*/bin`.
    static var binaryDirectory: String {
        if let directory = ProcessInfo.processInfo.environment["PERSIST_POSTGRES_BINDIR"], !directory.isEmpty {
            return directory
        }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        let newest = versions.compactMap(Int.init).max().map(String.init) ?? "15"
        return "/usr/lib/postgresql/\(newest)/bin"
    }

    /// Runs a command and waits for it, with `posix_spawn` and `waitpid`: Foundation's `Process`
    /// can miss the exit of a script whose children outlive it (the server it starts).
    private static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, error: String) {
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("persist-cluster-\(UUID().uuidString).err")
        defer { try? FileManager.default.removeItem(at: errorFile) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errorFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw Failure(description: "could not run \(executable): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw Failure(description: "waiting for \(executable) failed: error \(errno)") }
        }
        let error = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        let exited = status & 0x7F == 0
        return (exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F), error)
    }
}
