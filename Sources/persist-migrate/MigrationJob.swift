import Foundation
import Logging
import Persist
import PersistGDBM
import PersistPostgres
import PersistSQLite

/// One run of the tool: opens the stores, stages the target, runs the migration, and swaps the
/// finished target into place — remembering how far it got, to choose the exit status.
///
/// The source is never changed: a GDBM source that needs recovery is recovered as a copy
/// (`--recover`), and an SQLite source in WAL mode without a log is read as an unchanging file, so
/// that nothing is created beside it. The target is never half-written: a new one is built beside
/// its path and renamed into place, an existing SQLite database receives one transaction, and an
/// existing GDBM file is copied, filled and swapped in. A dry run does all of it and keeps nothing.
final class MigrationJob {
    var source: StorePlan
    let target: StorePlan
    let recover: Bool
    /// The item type of raw GDBM pairs.
    let rawType: String
    /// `--batch-size`: without it, a target that takes one huge block gets the copy in one.
    let batchSize: Int?
    let logger: Logger
    let signals: SignalWatcher
    /// Sets up the options for the stores once the source is open (its layout known, a copy
    /// recovered first included): the reshape and `--raw-value`.
    var configure: ((inout MigrationOptions, _ source: StorePlan, _ target: StorePlan) throws -> Void)?
    private(set) var stage: ToolExit.Stage = .openingSource
    private var stagingPath: String?
    /// What `--recover` did, for the summary.
    private(set) var recovery: GDBMRecoveryReport?
    /// Tables of an SQL source that are no item type (no usable key, say), each with why: the copy
    /// leaves them out, and the summary says so.
    private(set) var skippedSourceTables: [(name: String, reason: String)] = []
    private var recoveryCopy: String?

    init(source: StorePlan, target: StorePlan, recover: Bool, rawType: String, batchSize: Int?, logger: Logger,
         signals: SignalWatcher) {
        self.source = source
        self.target = target
        self.recover = recover
        self.rawType = rawType
        self.batchSize = batchSize
        self.logger = logger
        self.signals = signals
    }

    /// The tables of an SQL source whose rows a copy cannot take: those without a usable key, and
    /// those whose name (or two of whose columns' names) is another spelling of one Swift finds
    /// equal; its views, whose definitions a copy does not carry; its virtual tables (an FTS index
    /// keeps its text in shadow tables) and foreign tables, whose rows a copy does not carry
    /// (shadow and internal tables, and partitions, hold nothing beyond those).
    private static let viewLeftBehind = "whose definition a copy does not carry (recreate it with its SQL)"

    private static func skippedTables(of store: any DataStore) throws -> [(name: String, reason: String)] {
        if let sqlite = store as? SQLiteDataStore {
            return try sqlite.skippedTables().compactMap { table in
                switch table.reason {
                case .noUsableKey, .ambiguousName: return (table.name, table.reason.description)
                case .view: return (table.name, "a view, \(Self.viewLeftBehind)")
                case .virtualTable:
                    return (table.name, "a virtual table, whose rows its module keeps (an FTS table's in its shadow tables) "
                                + "and a copy does not carry (recreate it with its SQL and fill it again)")
                default: return nil
                }
            }
        }
        if let postgres = store as? PostgresDataStore {
            return try postgres.skippedTables().compactMap { table in
                switch table.reason {
                case .noUsableKey, .inheritedFrom, .ambiguousName: return (table.name, table.reason.description)
                case .view, .materializedView: return (table.name, "\(table.reason), \(Self.viewLeftBehind)")
                case .foreignTable: return (table.name, "a foreign table, whose rows another server holds and a copy does not carry")
                default: return nil
                }
            }
        }
        return []
    }

    func run(options: MigrationOptions, progress: ((MigrationProgress) -> Void)?) throws -> MigrationReport {
        defer { removeRecoveryCopy() }
        stage = .openingSource
        if source.needsRecovery { try recoverSource() }
        let sourcePath = recoveryCopy ?? source.path
        // An SQLite database in WAL mode without a log is complete by itself: read it as an
        // unchanging file (nothing is created beside it) and check afterwards that it was.
        var fingerprint: SourceFingerprint?
        if case .sqlite(wal: true) = source.finding, !FileSystem.exists(source.path + SQLiteDataStore.logSuffix),
           !FileSystem.exists(source.path + SQLiteDataStore.sharedMemorySuffix) {
            fingerprint = SourceFingerprint(path: source.path)
        }
        let sourceStore: any DataStore
        if let url = source.postgres {
            sourceStore = try signals.interruptible({ [logger] in try PostgresDriver.openSource(url, logger: logger) },
                                                    abandoned: { try? $0.tearDown() })
        } else {
            sourceStore = try StoreDrivers.driver(for: source.kind, logger: logger)
                .openReadOnly(path: sourcePath, layout: source.layout, unchanging: fingerprint != nil)
        }
        defer { try? sourceStore.tearDown() }
        skippedSourceTables = try Self.skippedTables(of: sourceStore)
        try signals.check()
        var options = options
        try configure?(&options, source, target)

        stage = .openingTarget
        if let url = target.postgres {
            // One transaction, whatever --batch-size says: the target is as it was or complete.
            options.batchSize = batchSize ?? 5_000
            options.atomic = true
            let store = try signals.interruptible({ [logger] in try PostgresDriver.open(url, logger: logger) },
                                                  abandoned: { try? $0.tearDown() })
            if let sourceURL = source.postgres, let sourceStore = sourceStore as? PostgresDataStore {
                do {
                    try PostgresDriver.checkDistinct(source: sourceStore, sourceURL, target: store, url)
                } catch {
                    try? store.tearDown()
                    throw error
                }
            }
            return try copy(from: sourceStore, to: store, options: options, progress: progress, fingerprint: fingerprint)
        }
        let targetDriver = try StoreDrivers.driver(for: target.kind, logger: logger)
        // Without --batch-size, an SQLite target takes one transaction: SQLite writes each page
        // once, instead of once per batch, and holds nothing in memory for it.
        options.batchSize = batchSize ?? 5_000
        options.atomic = targetDriver.writesInOneBlock && batchSize == nil
        // An existing target reached through a symbolic link is rebuilt beside the file the link
        // points to, and replaces that file: the link stays, and the copy made of the old
        // contents is a copy of the file, never a second link to it. A new target named by a link
        // to a file not made yet is built where the link leads, and the link stays too.
        let finalPath = target.exists ? FileSystem.canonical(target.path)
            : FileSystem.danglingLinkDestination(target.path) ?? target.path
        StagingFile.removeLeftovers(of: finalPath, companions: targetDriver.companionFiles)
        var copyExisting: (@Sendable (String, String, StoreDriver.Layout) throws -> Void)?
        if target.exists {
            switch targetDriver.existingTargetStrategy {
            case .singleTransaction:
                let store = try targetDriver.openWritable(path: target.path, layout: target.layout, create: false,
                                                          privateFile: false)
                options.atomic = true
                return try copy(from: sourceStore, to: store, options: options, progress: progress,
                                fingerprint: fingerprint)
            case .stagedCopy(let copy):
                copyExisting = copy
            }
        }

        let staging = StagingFile(finalPath: finalPath, companions: targetDriver.companionFiles)
        stagingPath = staging.path
        do {
            if let copyExisting {
                try copyExisting(finalPath, staging.path, target.layout)
            }
            try signals.check()
            let store = try targetDriver.openWritable(path: staging.path, layout: target.layout, create: !target.exists,
                                                      privateFile: true)
            let report = try copy(from: sourceStore, to: store, options: options, progress: progress,
                                  fingerprint: fingerprint)
            if options.dryRun {
                staging.discard()
            } else {
                // The last moment to stop: after it, the target is replaced whole.
                try signals.check()
                try staging.promote()
            }
            return report
        } catch {
            staging.discard()
            throw error
        }
    }

    /// Runs the migration into an open target and closes it; the target is closed on failure too.
    private func copy(
        from sourceStore: any DataStore, to targetStore: any DataStore, options: MigrationOptions,
        progress: ((MigrationProgress) -> Void)?, fingerprint: SourceFingerprint?
    ) throws -> MigrationReport {
        stage = .copying
        let report: MigrationReport
        var options = options
        if let fingerprint {
            // Before the commit: a target written in place (an existing SQLite file, a PostgreSQL
            // database) then rolls back, and "nothing was written" stays true.
            let path = source.path
            options.beforeCommit = { try fingerprint.check(path) }
        }
        do {
            report = try Migration(source: sourceStore, target: targetStore, options: options)
                .run(progress: progress, cancellation: signals.cancellation)
            stage = .finishing
        } catch {
            try? targetStore.tearDown()
            throw error
        }
        try targetStore.tearDown()
        return report
    }

    /// `--recover`: the source is copied beside the target and the copy recovered; the source
    /// itself is never touched. Without `--recover`, the run stops with 66 and says so.
    private func recoverSource() throws {
        guard recover else {
            throw ToolFailure(.sourceUnavailable, code: "needsRecovery",
                              "the source \(source.path) needs recovery: the program that last wrote it did not close it "
                                + "cleanly", hint: "run again with --recover: persist-migrate recovers a copy and copies "
                                + "from that, leaving \(source.path) as it is")
        }
        // Beside the target, which the run writes anyway; a server target has no directory, so the
        // copy goes to the temporary directory then.
        let besides = target.postgres == nil ? target.path : FileManager.default.temporaryDirectory
            .appendingPathComponent(LiteralPath.url(source.path).lastPathComponent).path
        // Copies that runs killed before they finished left there (in the temporary folder, no
        // later run's staging would find them) go first; a running migration keeps its own.
        StagingFile.removeLeftovers(of: besides, companions: { _ in [] })
        let copy = StagingFile(finalPath: besides, companions: { _ in [] }).path + ".recovering"
        recoveryCopy = copy
        do {
            // The file itself: a copy of a symbolic link would be a link, and recovering it
            // would repair the source in place.
            try FileManager.default.copyItem(atPath: FileSystem.canonical(source.path), toPath: copy)
        } catch {
            // The copy goes where the target does: failing to make it is the target side's failure.
            let folder = target.postgres == nil ? "the target's folder" : "the temporary folder"
            throw ToolFailure(.cannotCreate, code: "recoveryCopy",
                              "cannot copy \(source.path) to \(copy) to recover it: \(FileSystem.reason(error))",
                              hint: "check that \(folder) exists, is writable and has room for a copy of the source")
        }
        recovery = try GDBMDataStore.recover(path: copy, keepBackup: false, logger: logger)
        if !source.layoutGiven,
           let layout = try StoreResolver.detectLayout(path: copy, finding: source.finding, role: "source", rawType: rawType) {
            source.layout = layout
            source.layoutDetected = true
        }
        try signals.check()
    }

    private func removeRecoveryCopy() {
        guard let recoveryCopy else { return }
        for file in [recoveryCopy] + GDBMDataStore.companionSuffixes.map({ recoveryCopy + $0 }) {
            try? FileManager.default.removeItem(atPath: file)
        }
    }

    /// The exit status for an error this run raised.
    func exitStatus(for error: any Error) -> ToolExit {
        if error is CancellationError { return signals.signal == SIGTERM ? .terminated : .interrupted }
        let sourcePaths = Self.forms(of: source.path) + (recoveryCopy.map(Self.forms(of:)) ?? [])
            + (source.postgres.map { [$0.location] } ?? [])
        let targetPaths = Self.forms(of: target.path) + (stagingPath.map(Self.forms(of:)) ?? [])
            + (target.postgres.map { [$0.location] } ?? [])
        return ToolExit.status(for: error, at: stage, sourcePaths: sourcePaths, targetPaths: targetPaths)
    }

    /// Whether `path` is the source's (or its recovered copy's).
    func isSource(_ path: String?) -> Bool {
        guard let path else { return false }
        return (Self.forms(of: source.path) + (recoveryCopy.map(Self.forms(of:)) ?? [])).contains(path)
    }

    /// The error's text, naming the target rather than its staged copy (a new target is marked as
    /// being built; an existing one's copy holds what the target holds), and the source rather
    /// than its recovered copy.
    func describe(_ error: any Error) -> String {
        var text = (error as? DataStoreError)?.description ?? String(describing: error)
        if let stagingPath {
            text = text.replacingOccurrences(of: stagingPath, with: target.exists ? target.path : "\(target.path) (being built)")
        }
        if let recoveryCopy { text = text.replacingOccurrences(of: recoveryCopy, with: "\(source.path) (recovered copy)") }
        return text
    }

    /// The ways an error may name the file at `path`: as typed, standardized, and with links resolved.
    static func forms(of path: String) -> [String] {
        let url = LiteralPath.url(path)
        return Array(Set([path, url.path, url.standardizedFileURL.path, url.standardizedFileURL.resolvingSymlinksInPath().path,
                          FileSystem.canonical(path)]))
    }
}
