import Foundation
import Persist

/// Runs a program as a process of its own and measures it from outside, as a user's shell would:
/// wall-clock seconds and the process's peak resident memory (from `wait4`).
enum ChildProcessTimer {
    struct Measurement {
        var seconds: Double
        var peakMegabytes: Double
        var status: Int32
        var standardError: String
    }

    /// Runs `executable` with `arguments`; standard output is discarded, standard error kept.
    static func run(_ executable: String, _ arguments: [String]) throws -> Measurement {
        let errorFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("persist-bench-stderr-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: errorFile) }
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errorFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let spawned = posix_spawnp(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw BenchmarkError("cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        // The kernel's ru_maxrss of a spawned child starts from this process's own peak, so the
        // child's peak is read from its /proc status while it runs (VmHWM only ever grows).
        let peak = Locked(0.0)
        let running = Locked(true)
        let child = pid
        let watcher = Thread {
            while running.value {
                if let kilobytes = PeakMemory.highWaterKilobytes(of: child) {
                    peak.withLock { $0 = max($0, kilobytes / 1024) }
                }
                usleep(2_000)
            }
        }
        watcher.start()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw BenchmarkError("waiting for \(executable) failed: \(String(cString: strerror(errno)))") }
        }
        running.withLock { $0 = false }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let standardError = (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? ""
        return Measurement(seconds: seconds, peakMegabytes: peak.value, status: exitStatus,
                           standardError: standardError)
    }

    /// The path of a program built beside this one (`persist-migrate` beside `persist-bench`).
    static func sibling(_ name: String) -> String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent(name).path
    }
}
