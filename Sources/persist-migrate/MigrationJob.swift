import Foundation
import Logging
import Persist

/// One run of the tool: opens the stores, stages the target, runs the migration, and swaps the
/// finished target into place — remembering how far it got, to choose the exit status.
final class MigrationJob {
    let from: StoreSpec
    let to: StoreSpec
    let fromLayout: StoreDriver.Layout
    let toLayout: StoreDriver.Layout
    let logger: Logger
    private(set) var stage: ToolExit.Stage = .openingSource
    private var stagingPath: String?

    init(from: StoreSpec, to: StoreSpec, fromLayout: StoreDriver.Layout, toLayout: StoreDriver.Layout, logger: Logger) {
        self.from = from
        self.to = to
        self.fromLayout = fromLayout
        self.toLayout = toLayout
        self.logger = logger
    }

    func run(options: inout MigrationOptions, progress: ((MigrationProgress) -> Void)?) throws -> MigrationReport {
        let sourceDriver = StoreDrivers.driver(for: from.kind, logger: logger)
        let targetDriver = StoreDrivers.driver(for: to.kind, logger: logger)

        stage = .openingSource
        let source = try sourceDriver.openReadOnly(path: from.path, layout: fromLayout)
        defer { try? source.tearDown() }

        stage = .openingTarget
        let targetExists = FileManager.default.fileExists(atPath: to.path)
        if options.dryRun {
            let target = targetExists
                ? try targetDriver.openReadOnly(path: to.path, layout: toLayout) : InMemoryDataStore()
            try target.setup()
            defer { try? target.tearDown() }
            stage = .copying
            return try Migration(source: source, target: target, options: options).run(progress: progress)
        }

        StagingFile.removeLeftovers(of: to.path, companions: targetDriver.companionFiles)
        var copyExisting: (@Sendable (String, String, StoreDriver.Layout) throws -> Void)?
        if targetExists {
            switch targetDriver.existingTargetStrategy {
            case .singleTransaction:
                let target = try targetDriver.openWritable(path: to.path, layout: toLayout, create: false)
                options.atomic = true
                return try copy(from: source, to: target, options: options, progress: progress)
            case .stagedCopy(let copy):
                copyExisting = copy
            }
        }

        let staging = StagingFile(finalPath: to.path, companions: targetDriver.companionFiles)
        stagingPath = staging.path
        do {
            if let copyExisting {
                try copyExisting(to.path, staging.path, toLayout)
            }
            let target = try targetDriver.openWritable(path: staging.path, layout: toLayout,
                                                       create: !targetExists)
            let report = try copy(from: source, to: target, options: options, progress: progress)
            try staging.promote()
            return report
        } catch {
            staging.discard()
            throw error
        }
    }

    /// Runs the migration into an open target and closes it; the target is closed on failure too.
    private func copy(
        from source: any DataStore, to target: any DataStore, options: MigrationOptions,
        progress: ((MigrationProgress) -> Void)?
    ) throws -> MigrationReport {
        stage = .copying
        let report: MigrationReport
        do {
            report = try Migration(source: source, target: target, options: options).run(progress: progress)
        } catch {
            try? target.tearDown()
            throw error
        }
        stage = .finishing
        try target.tearDown()
        return report
    }

    /// The exit status for an error this run raised.
    func exitStatus(for error: any Error) -> ToolExit {
        let sourcePaths = Self.forms(of: from.path)
        let targetPaths = Self.forms(of: to.path) + (stagingPath.map(Self.forms(of:)) ?? [])
        return ToolExit.status(for: error, at: stage, sourcePaths: sourcePaths, targetPaths: targetPaths)
    }

    /// The error's text, naming the target rather than its staged copy.
    func describe(_ error: any Error) -> String {
        var text = (error as? DataStoreError)?.description ?? String(describing: error)
        if let stagingPath {
            text = text.replacingOccurrences(of: stagingPath, with: "\(to.path) (being built)")
        }
        return text
    }

    private static func forms(of path: String) -> [String] {
        let url = URL(fileURLWithPath: path)
        return Array(Set([path, url.path, url.standardizedFileURL.path, url.standardizedFileURL.resolvingSymlinksInPath().path]))
    }
}
