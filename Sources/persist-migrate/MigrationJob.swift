import Foundation
import Logging
import Persist
import PersistGDBM
import PersistPostgres

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
    /// Tables of an SQL source that are no item type (no usable key, say), each with why: a table
    /// with rows of its own that the copy is asked to carry fails the run before anything is
    /// written; the others are named in the summary's notes.
    private(set) var skippedSourceTables: [LeftOutTable] = []
    private var recoveryCopy: String?
    /// The recovered copy and its companion files, removed when the run ends.
    private var recoveryFiles: [String] = []

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

    func run(options: MigrationOptions, progress: ((MigrationProgress) -> Void)?) throws -> MigrationReport {
        defer { removeRecoveryCopy() }
        let targetDriver = try StoreDrivers.driver(for: target, logger: logger)
        stage = .openingSource
        if source.needsRecovery { try recoverSource(besides: targetDriver) }
        let sourceDriver = try StoreDrivers.driver(for: source, logger: logger)
        let opened = try sourceDriver.openSource(at: recoveryCopy ?? source.path, signals: signals)
        let sourceStore = opened.store
        defer { try? sourceStore.tearDown() }
        skippedSourceTables = try sourceDriver.skippedTables(of: sourceStore)
        // Decided before the target is opened: a run that would leave rows behind writes nothing.
        let blocking = skippedSourceTables.blocking(chosen: options.itemTypes)
        if !blocking.isEmpty {
            throw blocking.failure(source: source.path, untouched: ToolDiagnosis.untouched(target) + "; nothing was written")
        }
        try signals.check()
        var options = options
        try configure?(&options, source, target)
        // Checked before the target commits: a target written in place then rolls back, and
        // "nothing was written" stays true.
        if let check = opened.checkUnchanged { options.beforeCommit = check }

        stage = .openingTarget
        options.batchSize = batchSize ?? 5_000
        targetDriver.removeLeftovers()
        switch targetDriver.targetStrategy {
        case .oneTransaction:
            // One transaction, whatever --batch-size says: the target is as it was or complete.
            options.atomic = true
            let store = try targetDriver.openTarget(at: target.path, create: false, privateFile: false, signals: signals)
            do {
                try targetDriver.checkDistinct(target: store, source: sourceStore, sourcePlan: source)
            } catch {
                try? store.tearDown()
                throw error
            }
            return try copy(from: sourceStore, to: store, options: options, progress: progress)
        case .stagedFile(let finalPath, let inOneBlock, let copyExisting):
            options.atomic = inOneBlock && batchSize == nil
            return try copyStaged(from: sourceStore, into: finalPath, driver: targetDriver, copyExisting: copyExisting,
                                  options: options, progress: progress)
        }
    }

    /// Builds the target in a staging file beside `finalPath` (filled with a copy of the existing
    /// target first, by `copyExisting`), and renames it into place once the copy is complete.
    private func copyStaged(
        from sourceStore: any DataStore, into finalPath: String, driver: any StoreDriver,
        copyExisting: (@Sendable (String, String) throws -> Void)?, options: MigrationOptions,
        progress: ((MigrationProgress) -> Void)?
    ) throws -> MigrationReport {
        let staging = StagingFile(finalPath: finalPath, companions: driver.companionFiles)
        stagingPath = staging.path
        do {
            try copyExisting?(finalPath, staging.path)
            try signals.check()
            let store = try driver.openTarget(at: staging.path, create: !target.exists, privateFile: true, signals: signals)
            let report = try copy(from: sourceStore, to: store, options: options, progress: progress)
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
        progress: ((MigrationProgress) -> Void)?
    ) throws -> MigrationReport {
        stage = .copying
        let report: MigrationReport
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

    /// `--recover`: the source is copied beside the target (where `targetDriver` keeps scratch
    /// files) and the copy recovered; the source itself is never touched. Without `--recover`, the
    /// run stops with 66 and says so.
    private func recoverSource(besides targetDriver: any StoreDriver) throws {
        guard recover else {
            throw ToolFailure(.sourceUnavailable, code: "needsRecovery",
                              "the source \(source.path) needs recovery: the program that last wrote it did not close it "
                                + "cleanly", hint: "run again with --recover: persist-migrate recovers a copy and copies "
                                + "from that, leaving \(source.path) as it is")
        }
        let (besides, folder) = targetDriver.scratchPlace(for: LiteralPath.url(source.path).lastPathComponent)
        // Copies that runs killed before they finished left there (in the temporary folder, no
        // later run's staging would find them) go first; a running migration keeps its own.
        StagingFile.removeLeftovers(of: besides, companions: { _ in [] })
        let copy = StagingFile(finalPath: besides, companions: { _ in [] }).path + ".recovering"
        let driver = GDBMDriver(plan: source, logger: logger)
        recoveryFiles = [copy] + driver.companionFiles(of: copy)
        recoveryCopy = copy
        do {
            // The file itself: a copy of a symbolic link would be a link, and recovering it
            // would repair the source in place.
            try FileManager.default.copyItem(atPath: FileSystem.canonical(source.path), toPath: copy)
        } catch {
            // The copy goes where the target does: failing to make it is the target side's failure.
            throw ToolFailure(.cannotCreate, code: "recoveryCopy",
                              "cannot copy \(source.path) to \(copy) to recover it: \(FileSystem.reason(error))",
                              hint: "check that \(folder) exists, is writable and has room for a copy of the source")
        }
        let recovered = try driver.recover(copy: copy, rawType: rawType)
        source = recovered.plan
        recovery = recovered.report
        try signals.check()
    }

    private func removeRecoveryCopy() {
        for file in recoveryFiles { try? FileManager.default.removeItem(atPath: file) }
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
