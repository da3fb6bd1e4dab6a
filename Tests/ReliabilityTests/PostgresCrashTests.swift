import Foundation
import Logging
import Persist
import PersistPostgres
import PersistTestSupport
import Testing

extension CrashTests {
    /// Write blocks on PostgreSQL: the client killed with SIGKILL (on the run's server, in a
    /// schema of the test's own), and the server itself stopped with `pg_ctl stop -m immediate`
    /// (on a server of the test's own) and started again.
    @Suite("PostgreSQL write blocks")
    struct PostgresWriteBlocks {
        static var quiet: PostgresDataStore.Options {
            var logger = Logger(label: "persist.crash.postgres")
            logger.logLevel = .critical
            return PostgresDataStore.Options(logger: logger)
        }

        /// The last whole block the store at `url` holds, after checking that none is torn.
        static func lastWholeBlock(_ url: String, _ crash: CrashCase, round: Int) throws -> Int64 {
            let store = PostgresDataStore(url: url, options: quiet)
            try store.setup()
            defer { try? store.tearDown() }
            return try WriteBlocks.lastWholeBlock(store, crash, round: round)
        }

        static func serverURL() throws -> String {
            guard let url = ProcessInfo.processInfo.environment["PERSIST_POSTGRES_URL"], !url.isEmpty else {
                throw PostgresCluster.Failure(description: "PERSIST_POSTGRES_URL is not set, so the PostgreSQL crash "
                    + "tests have no server: run them with `scripts/postgres-cluster.sh run swift test`, or start one "
                    + "with `make postgres` and export the URL it prints")
            }
            return url
        }

        @Test("a client killed with SIGKILL leaves only whole blocks and keeps every returned one",
              arguments: Durability.allCases)
        func killedClient(_ durability: Durability) throws {
            let schema = "persist_crash_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20)
            let base = try Self.serverURL()
            defer { try? PostgresDataStore.dropSchema(String(schema), at: PostgresURL(base), options: Self.quiet) }
            let url = "\(base)?schema=\(schema)"
            let crash = CrashCase("blocks-postgres-client-\(durability)")
            try crash.killCountingWorker(["blocks", "postgres", url, durability.rawValue, String(WriteBlocks.perBlock)],
                                         maximumDelay: 0.05) { round in
                try Self.lastWholeBlock(url, crash, round: round)
            }
            crash.finish()
        }

        @Test("the server stopped with pg_ctl stop -m immediate during write blocks keeps every acknowledged block, none torn")
        func serverStopped() throws {
            let cluster = try PostgresCluster.start()
            defer { cluster.stop() }
            let crash = CrashCase("blocks-postgres-server-stop")
            var last: Int64 = 0
            for round in 0..<crash.kills {
                let worker = try ChildProcess(["blocks", "postgres", cluster.url, "normal", String(WriteBlocks.perBlock)])
                guard worker.waitForLines(1) else {
                    worker.kill()
                    crash.check(false, round: round, "the worker reported no progress: \(worker.errorOutput)")
                    return
                }
                usleep(UInt32.random(in: 0...80_000))
                try cluster.stopImmediately()
                crash.countKill()
                // The worker finds its connection gone: its block throws and it exits with an error.
                worker.closeInputAndWait()
                crash.check(worker.exitStatus == 1, round: round,
                            "the worker did not exit with an error after the server stopped: \(String(describing: worker.exitStatus))")
                let reported = worker.lines.compactMap { Int64($0) }.last ?? 0
                try cluster.startAgain()
                let now = try Self.lastWholeBlock(cluster.url, crash, round: round)
                crash.check(now >= reported, round: round, "block \(reported) was acknowledged but the store ends at \(now)")
                crash.check(now <= reported + 1, round: round, "the store ends at \(now), past the unacknowledged \(reported + 1)")
                crash.check(reported > last, round: round, "the worker made no progress past block \(last)")
                crash.count(now == reported ? "at-report" : "before-report")
                last = now
            }
            crash.finish()
        }
    }
}
