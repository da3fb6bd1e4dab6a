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
        usage: """
            persist-migrate OLD NEW [options]
            persist-migrate --from <kind> --to <kind> OLD NEW [options]
            persist-migrate --from <kind>:<path> --to <kind>:<path> [options]
            persist-migrate OLD postgresql://user@host:port/db[?schema=NAME] [options]
            """,
        discussion: """
            The kinds are gdbm, sqlite and postgresql (or postgres). A PostgreSQL database is named by its \
            URL, postgresql://user[:password]@host[:port]/database[?schema=NAME] or postgres://…, in place of a \
            path, positionally or with --from/--to (--from postgres URL … works too); ?schema= picks the schema \
            (public by default; a source's schema must exist, 66 otherwise, and a target's is created). The \
            password is used to log in and never shown: the summary, --json, errors and logs print the URL \
            without it. A PostgreSQL target receives the whole copy in one transaction \
            with binary COPY, its tables recreated from adopted SQL tables with their key, declared types, NOT \
            NULL, UNIQUE and indexes (built after the load).

            A store given by its path alone has its kind detected from its \
            content, as Python's dbm.whichdb does: the SQLite header, or the magic number of a GDBM file \
            of any format. A GDBM file written by another program (without Persist's format record) is \
            read in the raw layout, each key/value pair an item. A target that does not exist yet takes \
            its kind from its name: .sqlite or .sqlite3, .gdbm or .dbm.

            The source is opened read-only and never changed. A new target is built beside its final path \
            and renamed into place when it is complete and verified; an existing SQLite target receives the \
            copy in one transaction, and an existing GDBM target is copied, filled and swapped in. Whatever \
            happens — an error, SIGINT, SIGTERM, even kill -9 — the target is either as it was or complete.

            Items can be reshaped on the way: --rename-type Old=New, --rename-attribute Type.old=new and \
            --drop-attribute Type.name (each repeatable) name types and attributes as the source has them; \
            in Type.name, the type ends at the last dot. The rules apply together (two attributes may swap \
            names). A malformed rule, an empty or invalid name, a type or attribute renamed to itself, renamed \
            twice, or renamed and dropped, and two renames to one name are usage errors (64), found before \
            anything is opened. Renaming a type to another type the source holds (unless --types leaves \
            that one out), or an attribute to one an item already has, is a data error (65, naming the item), and nothing is written. A rule that \
            matches no item of the source is not an error: the summary warns about it, and --json counts the \
            items each rule applied to. An adopted SQL table is recreated as the rules reshape it: renamed, \
            its columns renamed in its indexes and UNIQUE constraints too, a dropped column left out with \
            each index or UNIQUE constraint that lists it (the summary notes each); a rule that names its key \
            column leaves the table to be made from the items, as the summary says. For raw GDBM files, --raw-value utf8 reads each value as a string \
            (invalid UTF-8 is a data error naming the key) and --raw-value json reads a JSON object's members \
            as attributes (any other JSON value as the one attribute "value"; integers that fit 64 bits stay \
            integers, other numbers are doubles); a raw target is written back the same way, JSON in \
            canonical form (no spaces, sorted keys, shortest numbers). Renames see the decoded attributes.

            Examples:
              persist-migrate old.db new.sqlite
              persist-migrate --from gdbm --to sqlite old.db new.sqlite
              persist-migrate --from gdbm:old.db --to sqlite:new.sqlite
              persist-migrate app.sqlite app.gdbm --types Restaurant,Review
              persist-migrate legacy.dbm legacy.sqlite --raw-type Entry
              persist-migrate old.db existing.sqlite --if-exists skip --json
              persist-migrate legacy.sqlite \\
                  'postgresql://app@db.example.com/shop?schema=legacy'
              persist-migrate --from postgres --to sqlite \\
                  'postgres://app@localhost/shop' back.sqlite
              persist-migrate crashed.db new.sqlite --recover
              persist-migrate notes.gdbm notes.sqlite --rename-type Note=Memo \\
                  --rename-attribute Note.titel=title
              persist-migrate sessions.dbm sessions.sqlite --raw-value json \\
                  --drop-attribute Entry.csrf

            Exit status:
              0   done and verified (or verification turned off)
              64  usage: a malformed store name or URL (a bad ?schema= included), an
                  unknown kind or URL scheme, a bad option or reshape rule
              65  data error: an item cannot be decoded, reshaped or stored, or
                  verification found a difference
              66  the source is missing, empty, not a store, or needs --recover; the
                  source's PostgreSQL database does not exist
              69  a PostgreSQL server cannot be reached (the message names host and
                  port) or lost the connection
              73  the target cannot be created, or already holds items (with
                  --if-exists fail); the target's PostgreSQL database does not exist
              74  input/output error, such as no room for the target (a full disk,
                  the file size limit)
              75  a store is locked by another process, or the source changed while
                  it was copied
              77  a PostgreSQL server refused the URL's user or password
                  (authentication failed)
              130 stopped by SIGINT, 143 by SIGTERM: the target was left as it was
            """)

    @Option(name: .long, help: ArgumentHelp("The store to copy from: a kind (with the path or URL given after the options), "
                                                + "kind:path, a path, or a PostgreSQL URL.", valueName: "store"))
    var from: String?

    @Option(name: .long, help: ArgumentHelp("The store to copy to: a kind (with the path or URL given after the options), "
                                                + "kind:path, a path, or a PostgreSQL URL.", valueName: "store"))
    var to: String?

    @Argument(help: ArgumentHelp("The paths of the stores whose --from or --to gives no path: the source's, then the "
                                    + "target's.", valueName: "path"))
    var paths: [String] = []

    @Option(name: .customLong("from-layout"), help: ArgumentHelp(
        "The layout of a GDBM source: native, or raw for files written by other programs (detected when omitted)."))
    var fromLayout: GDBMDataStore.Options.Layout?

    @Option(name: .customLong("to-layout"), help: ArgumentHelp(
        "The layout of a GDBM target: native (the default for a new file), or raw (detected for an existing file when omitted)."))
    var toLayout: GDBMDataStore.Options.Layout?

    @Option(name: .customLong("raw-type"), help: "The item type that raw GDBM key/value pairs are read as or written from.")
    var rawType = "Entry"

    // Repeatable, as the reshape rules are: `--types A --types B` copies both, never only the last.
    @Option(name: .long, help: ArgumentHelp("Copy only these item types, named as the source has them (before any "
                                                + "--rename-type; comma-separated, or the option repeated); the "
                                                + "summary notes a type the source does not have.", valueName: "A,B"))
    var types: [String] = []

    @Option(name: .customLong("if-exists"), help: "Items the target already holds: fail (write nothing), replace, or skip.")
    var ifExists: MigrationOptions.ExistingItems = .fail

    // Unconditional, so that a negative count reaches the check below instead of reading as an option.
    @Option(name: .customLong("batch-size"), parsing: .unconditional, help: ArgumentHelp(
        "Items per target write block (default 5000). Without it, an SQLite target takes the whole copy in one "
            + "transaction, the fastest way, in constant memory.",
        valueName: "n"))
    var batchSize: Int?

    @Flag(name: .customLong("no-verify"), help: "Skip the verification pass.")
    var noVerify = false

    @Flag(name: .customLong("dry-run"), help: ArgumentHelp(
        "Copy as a real run does, then throw it away: a new target or an existing GDBM file is built in a staging copy "
            + "that is removed, an existing SQLite target or a PostgreSQL target gets one transaction that is rolled "
            + "back, without verification. The target's rules apply and the run fails where the real one would; report "
            + "what would be copied."))
    var dryRun = false

    @Flag(name: .long, help: ArgumentHelp(
        "Recover a GDBM source that was not closed cleanly: a copy of it is recovered and copied from; the source "
            + "itself is never changed."))
    var recover = false

    @Option(name: .long, help: "auto: a live bar on a terminal, plain lines otherwise; always; never. Shown on standard error.")
    var progress: ProgressDisplay.Mode = .auto

    @OptionGroup(title: "Reshaping")
    var reshape: ReshapeOptions

    @Flag(name: .long, help: "Print a machine-readable summary on standard output.")
    var json = false

    @Flag(name: .long, help: "Also log what the stores do (tables created, journals replayed) on standard error.")
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
        let options = MigrationOptions(itemTypes: selectedTypes, ifExists: ifExists, verify: !noVerify, dryRun: dryRun)
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
                + reshapeNotes(ruleLines, plans: job.map { ($0.source, $0.target) } ?? plans) + (report?.schemaNotes ?? []),
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
        for table in job.skippedSourceTables {
            notes.append("the source's table \(String(reflecting: table.name)) was not copied: \(table.reason)")
        }
        if let recovery = job.recovery {
            notes.append("\(source.path) needed recovery: a copy was recovered (\(recovery.recoveredKeys) records kept, "
                            + "\(recovery.failedKeys) lost) and copied from; \(source.path) itself was not changed")
        }
        return notes
    }
}
