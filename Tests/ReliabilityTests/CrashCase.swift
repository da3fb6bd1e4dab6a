import Foundation
import PersistTestSupport
import Testing

/// The bookkeeping of one crash case: how many times the work was killed, how many invariant
/// violations were found, and how each round ended. Every violation is also recorded as a test
/// issue; ``finish()`` prints the line `crash-case <name> kills=<n> violations=<m> …` that
/// `scripts/crash-table.sh` turns into the torture table.
final class CrashCase {
    let name: String
    /// How many kills this case makes.
    let kills: Int
    private(set) var killed = 0
    private(set) var violations = 0
    private(set) var outcomes: [String: Int] = [:]

    /// A case making the number of kills `PERSIST_CRASH_KILLS` asks for (10 when unset), and at
    /// least `minimum`.
    init(_ name: String, minimumKills minimum: Int = 1) {
        self.name = name
        let requested = ProcessInfo.processInfo.environment["PERSIST_CRASH_KILLS"].flatMap { Int($0) } ?? 10
        kills = max(requested, minimum, 1)
    }

    /// Counts one kill.
    func countKill() {
        killed += 1
    }

    /// Counts one round that ended as `outcome` (untouched, complete, committed before its report…).
    func count(_ outcome: String) {
        outcomes[outcome, default: 0] += 1
    }

    /// Checks an invariant: when it does not hold, counts a violation and records an issue.
    func check(_ condition: Bool, round: Int, _ message: @autoclosure () -> String,
               sourceLocation: SourceLocation = #_sourceLocation) {
        guard !condition else { return }
        violations += 1
        Issue.record("\(name), round \(round): \(message())", sourceLocation: sourceLocation)
    }

    /// Starts `arguments` of `product`, waits until it reports `lines` lines of progress, waits
    /// `delay` more seconds, and kills it with SIGKILL. Returns the lines it printed, or `nil`
    /// (a violation) when it exited or stalled instead of working until the kill.
    func killWorker(product: String = "persist-crash-worker", _ arguments: [String], round: Int,
                    after delay: TimeInterval, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String]? {
        let worker = try ChildProcess(product: product, arguments)
        guard worker.waitForLines(1) else {
            worker.kill()
            check(false, round: round, "the worker reported no progress: status \(String(describing: worker.exitStatus)), "
                    + worker.errorOutput, sourceLocation: sourceLocation)
            return nil
        }
        usleep(UInt32(delay * 1_000_000))
        worker.kill()
        countKill()
        check(worker.exitStatus == nil, round: round,
              "the worker exited with status \(worker.exitStatus ?? 0) before the kill: \(worker.errorOutput)",
              sourceLocation: sourceLocation)
        return worker.lines
    }

    /// Kills a worker that numbers its rounds and prints each number once the round is durable,
    /// `kills` times, each time after it reported a round and up to `maximumDelay` seconds more.
    /// After each kill, `stored` reopens the store, checks its invariants and returns the last
    /// round it holds, which must be the last reported round (or the one after it, when the kill
    /// came between a commit and its report) and past the one stored before.
    func killCountingWorker(_ arguments: [String], maximumDelay: TimeInterval,
                            sourceLocation: SourceLocation = #_sourceLocation,
                            stored: (_ round: Int) throws -> Int64) throws {
        var last: Int64 = 0
        for round in 0..<kills {
            guard let lines = try killWorker(arguments, round: round, after: .random(in: 0...maximumDelay),
                                             sourceLocation: sourceLocation) else { return }
            let reported = lines.compactMap { Int64($0) }.last ?? 0
            let now = try stored(round)
            check(now >= reported, round: round, "round \(reported) was reported durable but the store ends at \(now)",
                  sourceLocation: sourceLocation)
            check(now <= reported + 1, round: round, "the store ends at \(now), past the unreported round \(reported + 1)",
                  sourceLocation: sourceLocation)
            check(reported > last, round: round, "the worker made no progress past round \(last)",
                  sourceLocation: sourceLocation)
            count(now == reported ? "at-report" : "before-report")
            last = now
        }
    }

    /// Prints the case's line and expects every planned kill to have happened.
    func finish(sourceLocation: SourceLocation = #_sourceLocation) {
        let details = outcomes.keys.sorted().map { " \($0)=\(outcomes[$0] ?? 0)" }.joined()
        print("crash-case \(name) kills=\(killed) violations=\(violations)\(details)")
        #expect(killed == kills, "\(name): \(killed) of \(kills) kills happened", sourceLocation: sourceLocation)
    }
}
