import ArgumentParser
import Foundation
import Logging
import Persist
import PersistGDBM

@main
struct PersistMigrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "persist-migrate",
        abstract: "Copy every item from one Persist store to another: streamed, verified, never half-written.",
        discussion: """
            A store is written <kind>:<path>, where kind is gdbm or sqlite. The source is opened \
            read-only and never changed. A new target is built beside its final path and renamed into \
            place when it is complete and verified; an existing SQLite target receives the copy in one \
            transaction, and an existing GDBM target is copied, filled and swapped in. Whatever happens, \
            the target is either as it was or complete.

            Examples:
              persist-migrate --from gdbm:old.db --to sqlite:new.sqlite
              persist-migrate --from sqlite:app.sqlite --to gdbm:app.db --types Restaurant,Review
              persist-migrate --from gdbm:legacy.dbm --from-layout raw --raw-type Entry --to sqlite:legacy.sqlite
              persist-migrate --from gdbm:old.db --to sqlite:existing.sqlite --if-exists skip --json

            Exit status:
              0   done and verified (or verification turned off)
              64  usage: unknown kind, malformed store, bad option
              65  data error: an item cannot be decoded or stored, or verification found a difference
              66  the source is missing or cannot be read as a store of its kind
              73  the target cannot be created, or already holds items (with --if-exists fail)
              74  input/output error
              75  a store is locked by another process
            """)

    @Option(name: .long, help: ArgumentHelp("The store to copy from, as <kind>:<path>.", valueName: "kind:path"),
            transform: { try StoreSpec(parsing: $0, option: "--from") })
    var from: StoreSpec

    @Option(name: .long, help: ArgumentHelp("The store to copy to, as <kind>:<path>.", valueName: "kind:path"),
            transform: { try StoreSpec(parsing: $0, option: "--to") })
    var to: StoreSpec

    @Option(name: .customLong("from-layout"), help: "The layout of a GDBM source: native, or raw for files written by other programs.")
    var fromLayout: GDBMDataStore.Options.Layout = .native

    @Option(name: .customLong("to-layout"), help: "The layout of a GDBM target: native, or raw.")
    var toLayout: GDBMDataStore.Options.Layout = .native

    @Option(name: .customLong("raw-type"), help: "The item type that raw GDBM key/value pairs are read as or written from.")
    var rawType = "Entry"

    @Option(name: .long, help: ArgumentHelp("Copy only these item types (comma-separated).", valueName: "A,B"))
    var types: String?

    @Option(name: .customLong("if-exists"), help: "Items the target already holds: fail (write nothing), replace, or skip.")
    var ifExists: MigrationOptions.ExistingItems = .fail

    @Option(name: .customLong("batch-size"), help: ArgumentHelp(
        "Items per target write block (default 5000). Without it, a new SQLite database takes the whole copy "
            + "in one transaction, the fastest way, in constant memory; an existing one always does.",
        valueName: "n"))
    var batchSize: Int?

    @Flag(name: .customLong("no-verify"), help: "Skip the verification pass.")
    var noVerify = false

    @Flag(name: .customLong("dry-run"), help: "Read and decode everything, write nothing, report what would be copied.")
    var dryRun = false

    @Option(name: .long, help: "auto: a live bar on a terminal, plain lines otherwise; always; never. Shown on standard error.")
    var progress: ProgressDisplay.Mode = .auto

    @Flag(name: .long, help: "Print a machine-readable summary on standard output.")
    var json = false

    @Flag(name: .long, help: "Also log what the stores do (tables created, journals replayed) on standard error.")
    var verbose = false

    var selectedTypes: [String]? {
        types.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    func validate() throws {
        if fromLayout.isRaw && from.kind != .gdbm {
            throw ValidationError("--from-layout raw applies to GDBM sources only; \(from) is \(from.kind.rawValue)")
        }
        if toLayout.isRaw && to.kind != .gdbm {
            throw ValidationError("--to-layout raw applies to GDBM targets only; \(to) is \(to.kind.rawValue)")
        }
        if let batchSize, batchSize < 1 {
            throw ValidationError("--batch-size must be at least 1, not \(batchSize)")
        }
        if rawType.isEmpty {
            throw ValidationError("--raw-type must not be empty")
        }
        if let selectedTypes, selectedTypes.isEmpty || selectedTypes.contains(where: \.isEmpty) {
            throw ValidationError("--types needs item type names separated by commas, such as --types Restaurant,Review")
        }
        let source = URL(fileURLWithPath: from.path).standardizedFileURL.resolvingSymlinksInPath().path
        let target = URL(fileURLWithPath: to.path).standardizedFileURL.resolvingSymlinksInPath().path
        if source == target {
            throw ValidationError("--from and --to name the same file, \(from.path); copy to another file")
        }
    }

    func run() throws {
        // Without --batch-size, an SQLite target takes one transaction: SQLite writes each page once,
        // instead of once per batch, and holds nothing in memory for it.
        var options = MigrationOptions(itemTypes: selectedTypes, ifExists: ifExists, batchSize: batchSize ?? 5_000,
                                       verify: !noVerify, dryRun: dryRun, atomic: batchSize == nil && to.kind == .sqlite)
        let display = ProgressDisplay(mode: progress, standardErrorIsTerminal: isatty(STDERR_FILENO) == 1) { text in
            FileHandle.standardError.write(Data(text.utf8))
        }
        var logger = Logger(label: "persist-migrate")
        logger.logLevel = verbose ? .debug : .warning
        let job = MigrationJob(from: from, to: to, fromLayout: fromLayout.withRawType(rawType), toLayout: toLayout.withRawType(rawType),
                               logger: logger)
        let started = DispatchTime.now().uptimeNanoseconds
        var report: MigrationReport?
        var failure: (exit: ToolExit, error: any Error)?
        do {
            report = try job.run(options: &options, progress: progress == .never ? nil : display.update)
        } catch {
            failure = (job.exitStatus(for: error), error)
        }
        display.finish()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let exit = failure?.exit ?? .ok
        let summary = MigrationSummary(
            source: .init(kind: from.kind.rawValue, path: from.path, layout: from.kind == .gdbm ? fromLayout.name : nil),
            target: .init(kind: to.kind.rawValue, path: to.path, layout: to.kind == .gdbm ? toLayout.name : nil),
            dryRun: dryRun, report: report, seconds: seconds, exit: exit,
            error: failure.map { MigrationSummary.Failure(code: Self.code(of: $0.error), message: job.describe($0.error)) })
        if json {
            print(try summary.json())
        } else if failure == nil {
            print(summary.text())
        }
        if let failure {
            FileHandle.standardError.write(Data("persist-migrate: \(job.describe(failure.error))\n".utf8))
            if let hint = Self.hint(for: failure.exit) {
                FileHandle.standardError.write(Data("persist-migrate: \(hint)\n".utf8))
            }
            throw ExitCode(failure.exit.rawValue)
        }
    }

    static func code(of error: any Error) -> String {
        (error as? DataStoreError)?.code.rawValue ?? "internal"
    }

    static func hint(for exit: ToolExit) -> String? {
        switch exit {
        case .cannotCreate:
            "the target was left as it was; to copy into a target that already holds these items, pass "
                + "--if-exists replace or --if-exists skip, or choose another target path"
        case .locked:
            "another process is using the store; run again when it has finished"
        case .sourceUnavailable:
            "check the source path and its kind (gdbm or sqlite, and --from-layout raw for GDBM files of other programs)"
        case .dataError:
            "the target was left as it was; --dry-run reads the whole source and reports what would be copied"
        case .ioError:
            "the target was left as it was; check free disk space and permissions"
        case .ok, .usage, .software:
            nil
        }
    }
}
