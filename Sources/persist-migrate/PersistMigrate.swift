import ArgumentParser
import Foundation
import Logging
import Persist
import PersistGDBM

@main
struct PersistMigrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "persist-migrate",
        abstract: "Copy a store's items into another, verified and never half-written.",
        usage: """
            persist-migrate OLD NEW [options]
            persist-migrate --from <kind> --to <kind> OLD NEW [options]
            persist-migrate --from <kind>:<path> --to <kind>:<path> [options]
            """,
        discussion: """
            Kinds: gdbm, sqlite, postgresql (a postgresql:// URL in place of the path).
            A bare path's kind is read from the file, or a new target's from its name.

            Examples:
              persist-migrate old.db new.sqlite
              persist-migrate --from gdbm --to sqlite old.db new.sqlite
              persist-migrate legacy.sqlite 'postgresql://app@db.example.com/shop'
              persist-migrate notes.gdbm notes.sqlite --rename-type Note=Memo

            Exit status:
              0   done and verified    64  usage error          65  data error
              66  source unusable      69  server unreachable   73  target refused
              74  input/output error   75  store locked         77  login refused
              130 SIGINT, 143 SIGTERM: stopped, with the target as it was

            In full: the article "The persist-migrate tool" of the Persist documentation
            (Sources/Persist/Persist.docc/PersistMigrateTool.md).
            """)

    @Option(name: .long, help: ArgumentHelp("The store to copy from: kind, kind:path, path or URL.", valueName: "store"))
    var from: String?

    @Option(name: .long, help: ArgumentHelp("The store to copy to: kind, kind:path, path or URL.", valueName: "store"))
    var to: String?

    @Argument(help: ArgumentHelp("The paths --from and --to leave out: source, target.", valueName: "path"))
    var paths: [String] = []

    @Option(name: .customLong("from-layout"), help: ArgumentHelp("Layout of a GDBM source.", valueName: "layout"))
    var fromLayout: GDBMDataStore.Options.Layout?

    @Option(name: .customLong("to-layout"), help: ArgumentHelp("Layout of a GDBM target.", valueName: "layout"))
    var toLayout: GDBMDataStore.Options.Layout?

    @Option(name: .customLong("raw-type"), help: ArgumentHelp("Item type of raw GDBM pairs.", valueName: "type"))
    var rawType = "Entry"

    // Repeatable, as the reshape rules are: `--types A --types B` copies both, never only the last.
    @Option(name: .long, help: ArgumentHelp("Copy only these item types (repeatable).", valueName: "A,B"))
    var types: [String] = []

    @Option(name: .customLong("if-exists"), help: ArgumentHelp("Items the target already holds.", valueName: "policy"))
    var ifExists: MigrationOptions.ExistingItems = .fail

    // Unconditional, so that a negative count reaches the check below instead of reading as an option.
    @Option(name: .customLong("batch-size"), parsing: .unconditional, help: ArgumentHelp(
        "Items per target write block (default 5000).", valueName: "n"))
    var batchSize: Int?

    @Flag(name: .customLong("no-verify"), help: "Skip the verification pass.")
    var noVerify = false

    @Flag(name: .customLong("dry-run"), help: "Copy as a real run does, then throw the copy away.")
    var dryRun = false

    @Flag(name: .customLong("drop-relations"), help: "Copy the items without the source's relations (foreign keys).")
    var dropRelations = false

    @Flag(name: .long, help: "Copy from a recovered copy of an unclosed GDBM file.")
    var recover = false

    @Option(name: .long, help: ArgumentHelp("Progress on standard error; auto: a bar on a terminal.", valueName: "when"))
    var progress: ProgressDisplay.Mode = .auto

    @OptionGroup(title: "Reshaping")
    var reshape: ReshapeOptions

    @Flag(name: .long, help: "Print a machine-readable summary on standard output.")
    var json = false

    @Flag(name: .long, help: "Log what the stores do on standard error.")
    var verbose = false

    var selectedTypes: [String]? {
        guard !types.isEmpty else { return nil }
        return types.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    func validate() throws {
        if let batchSize, batchSize < 1 {
            throw ValidationError("--batch-size must be at least 1, not \(batchSize)")
        }
        if rawType.isEmpty {
            throw ValidationError("--raw-type must not be empty")
        }
        if let selectedTypes, selectedTypes.isEmpty || selectedTypes.contains(where: \.isEmpty) {
            throw ValidationError("--types needs item type names separated by commas, such as --types Restaurant,Review")
        }
        _ = try reshape.reshape()
        _ = try resolver().names()
    }

    /// The stores named on the command line. `--from` and `--to` are parsed here rather than by an
    /// option transform, whose errors the argument parser prints with the value typed, which may be
    /// a URL holding a password; these errors never repeat a URL.
    func resolver() throws -> StoreResolver {
        StoreResolver(from: try from.map { try StoreName(parsing: $0, option: "--from") },
                      to: try to.map { try StoreName(parsing: $0, option: "--to") },
                      paths: paths, fromLayout: fromLayout, toLayout: toLayout, rawType: rawType)
    }

    func run() throws {
        let signals = SignalWatcher()
        var options = MigrationOptions(itemTypes: selectedTypes, ifExists: ifExists, verify: !noVerify, dryRun: dryRun)
        options.carriesRelations = !dropRelations
        var logger = Logger(label: "persist-migrate")
        logger.logLevel = verbose ? .debug : .warning
        let started = DispatchTime.now().uptimeNanoseconds
        var report: MigrationReport?
        var job: MigrationJob?
        var failure: (any Error)?
        var plans: (source: StorePlan, target: StorePlan)?
        do {
            let resolved = try resolver().resolve()
            if recover && resolved.source.kind != .gdbm {
                throw ValidationError("--recover applies to GDBM sources only; \(resolved.source.path) is "
                                        + resolved.source.kind.aFile)
            }
            plans = resolved
            let display = ProgressDisplay(mode: progress, standardErrorIsTerminal: isatty(STDERR_FILENO) == 1) { text in
                FileHandle.standardError.write(Data(text.utf8))
            }
            let running = MigrationJob(source: resolved.source, target: resolved.target, recover: recover, rawType: rawType,
                                       batchSize: batchSize, logger: logger, signals: signals)
            // Once the job knows the source's layout: a GDBM file that needs recovery has its
            // layout detected only in the recovered copy.
            running.configure = { [reshape] options, source, target in
                try reshape.configure(&options, source: source, target: target)
            }
            job = running
            defer { display.finish() }
            report = try running.run(options: options, progress: progress == .never ? nil : display.update)
        } catch let error as ValidationError {
            throw error
        } catch {
            failure = error
        }
        let named = try? resolver().names()
        let exit = failure.map { job?.exitStatus(for: $0) ?? Self.statusBeforeJob(for: $0, named: named) } ?? .ok
        let diagnosis = failure.map {
            ToolDiagnosis($0, exit: exit, job: job, options: options, named: (named?.source.path, named?.target.path))
        }
        let ruleLines = reshapeReport(report: report)
        let summary = MigrationSummary(
            source: Self.store(job?.source ?? plans?.source, named: named?.source),
            target: Self.store(job?.target ?? plans?.target, named: named?.target),
            dryRun: dryRun, report: report, seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9,
            notes: (job.map { Self.notes($0, rawValue: reshape.rawValue) } ?? []) + absentTypeNotes(report)
                + reshapeNotes(ruleLines, plans: job.map { ($0.source, $0.target) } ?? plans) + (report?.schemaNotes ?? [])
                + (report?.relationNotes ?? []),
            reshape: ruleLines, exit: exit,
            error: diagnosis.map { MigrationSummary.Failure(code: $0.code, message: $0.message, hint: $0.hint) })
        if json {
            print(try summary.json())
        } else if failure == nil {
            print(summary.text())
        }
        if let diagnosis {
            FileHandle.standardError.write(Data("persist-migrate: \(diagnosis.message)\n".utf8))
            if let hint = diagnosis.hint {
                FileHandle.standardError.write(Data("persist-migrate: \(hint)\n".utf8))
            }
            throw ExitCode(exit.rawValue)
        }
    }

    /// The status for an error raised while the stores were being looked at, before a job
    /// existed: an error naming the target's file (a damaged GDBM target, say) is the target's.
    private static func statusBeforeJob(for error: any Error, named: (source: StoreName, target: StoreName)?) -> ToolExit {
        let targetPaths = named?.target.path.map(MigrationJob.forms(of:)) ?? []
        let isTarget = (error as? DataStoreError)?.path.map(targetPaths.contains) == true
        return ToolExit.status(for: error, at: isTarget ? .openingTarget : .openingSource,
                               sourcePaths: named?.source.path.map(MigrationJob.forms(of:)) ?? [], targetPaths: targetPaths)
    }

    /// The summary's account of a store, from its plan or, when the run stopped before one was
    /// made, from what was typed.
    static func store(_ plan: StorePlan?, named: StoreName?) -> MigrationSummary.Store {
        guard let plan else {
            return MigrationSummary.Store(kind: named?.kind?.rawValue, path: named?.path ?? "", layout: nil,
                                          kindDetected: false, layoutDetected: false)
        }
        return MigrationSummary.Store(kind: plan.kind.rawValue, path: plan.path,
                                      layout: plan.kind == .gdbm ? plan.layout.name : nil,
                                      kindDetected: plan.kindOrigin != .named, layoutDetected: plan.layoutDetected)
    }

    /// The types --types names that the source does not have: most often a misspelling, or the
    /// new name of a renamed type (--types takes the source's names).
    private func absentTypeNotes(_ report: MigrationReport?) -> [String] {
        let rules = (try? reshape.reshape().rules) ?? []
        return (report?.absentTypes ?? []).map { name in
            let note = "--types names \(String(reflecting: name)), which the source does not have"
            for case .renameType(let old, let new) in rules where new == name {
                return note + "; it is the name --rename-type \(old)=\(new) gives, and --types takes the source's "
                    + "names: --types \(old) copies those items"
            }
            return note
        }
    }

    /// What the run found or did that the summary should say.
    private static func notes(_ job: MigrationJob, rawValue: RawValueMode) -> [String] {
        var notes: [String] = []
        let source = job.source
        if source.kind == .gdbm, source.layoutDetected, case .raw(let itemType, let attribute) = source.layout {
            let value = switch rawValue {
            case .bytes: "its value in \(String(reflecting: attribute))"
            case .utf8: "its value read as a string (--raw-value utf8) in \(String(reflecting: attribute))"
            case .json: "its value read as JSON (--raw-value json): an object's members as attributes, any other "
                + "value in \(String(reflecting: attribute))"
            }
            notes.append("\(source.path) is a GDBM file of another program (it has no Persist format record): read in the "
                            + "raw layout, each key/value pair an item of type \(itemType) with \(value); give "
                            + "--from-layout native to refuse such files")
        }
        // A table --types leaves out is left out on purpose; one that holds rows and is not left
        // out failed the run, with its own message.
        for table in job.skippedSourceTables where !table.holdsRows {
            notes.append("the source's table \(String(reflecting: table.name)) was not copied: \(table.reason)")
        }
        if let recovery = job.recovery {
            notes.append("\(source.path) needed recovery: a copy was recovered (\(recovery.recoveredKeys) records kept, "
                            + "\(recovery.failedKeys) lost) and copied from; \(source.path) itself was not changed")
        }
        return notes
    }
}
