import Foundation
import Persist
import PersistGDBM
import PersistSQLite

/// What the tool says about a failure: the message, in the tool's words (the library's advice
/// names Swift APIs, which mean nothing on a command line), and one hint that fits this error and
/// names only flags the tool has.
struct ToolDiagnosis {
    let exit: ToolExit
    let code: String
    let message: String
    let hint: String?

    /// Words of library advice that only make sense in Swift; sentences holding them are dropped.
    static let apiWords = ["DataStore", "Options", "readOnly", "createIfMissing", "layout .raw", "recover(path",
                           "setup()", "busyTimeout", "without readOnly"]

    /// `named`: the paths (or redacted URLs) typed for the stores, for a failure that came before
    /// the job existed, while the stores were looked at.
    init(_ error: any Error, exit: ToolExit, job: MigrationJob?, options: MigrationOptions,
         named: (source: String?, target: String?) = (nil, nil)) {
        self.exit = exit
        switch error {
        case let failure as ToolFailure:
            code = failure.code
            message = failure.message
            hint = failure.hint
        case is CancellationError:
            code = "interrupted"
            let signal = exit == .terminated ? "SIGTERM" : "SIGINT"
            let target = job?.target
            message = "stopped by \(signal)"
            hint = target.map { Self.untouched($0) + "; nothing was written" }
        case let error as DataStoreError:
            code = error.code.rawValue
            // The code leads the description ("readOnly: …"), and the paths are the user's own:
            // neither is advice to drop.
            let described = job?.describe(error) ?? error.description
            let lead = error.code.rawValue + ": "
            let paths = [job?.source.path ?? named.source, job?.target.path ?? named.target].compactMap { $0 }
                .flatMap(MigrationJob.forms(of:))
            let body = described.hasPrefix(lead) ? String(described.dropFirst(lead.count)) : described
            let plain = Self.plain(body, sparing: paths)
            // All of it advice for Swift: better the library's words than no message.
            message = (described.hasPrefix(lead) ? lead : "") + (plain.isEmpty ? body : plain)
            hint = Self.hint(for: error, exit: exit, job: job, options: options, named: named)
        default:
            code = "internal"
            message = String(describing: error)
            hint = nil
        }
    }

    /// What a failed run did to `target`: nothing, which for a file that did not exist means it
    /// was not created. A PostgreSQL target's one transaction rolls back, so its schema is as it
    /// was whether or not it existed (the tool does not look).
    static func untouched(_ target: StorePlan) -> String {
        target.exists || !target.kind.isFile ? "\(target.path) was left as it was" : "no \(target.path) was created"
    }

    /// The message without the sentences of advice written for Swift callers; words inside the
    /// `sparing` paths do not count.
    static func plain(_ message: String, sparing paths: [String] = []) -> String {
        var kept: [String] = []
        for sentence in message.components(separatedBy: ". ") {
            var clauses = sentence.components(separatedBy: "; ")
            clauses.removeAll { clause in
                let words = paths.reduce(clause) { $0.replacingOccurrences(of: $1, with: "") }
                return apiWords.contains { words.contains($0) }
            }
            if !clauses.isEmpty { kept.append(clauses.joined(separator: "; ")) }
        }
        return kept.joined(separator: ". ")
    }

    private static func hint(for error: DataStoreError, exit: ToolExit, job: MigrationJob?,
                             options: MigrationOptions, named: (source: String?, target: String?)) -> String? {
        let source = job?.source.path ?? named.source ?? "the source"
        let target = job?.target.path ?? named.target ?? "the target"
        let left = options.dryRun ? "nothing was written (dry run)" : job.map { Self.untouched($0.target) } ?? "\(target) was left as it was"
        let onServer = error.path?.hasPrefix("postgresql://") == true
        if error.code == .notFound, onServer,
           error.message.hasPrefix(PostgresDriver.missingSchemaPrefix) {
            return "check the schema's name in the URL (?schema=NAME; public by default)"
        }
        if error.code == .notFound, onServer, exit == .sourceUnavailable {
            return "check the database's name in the URL"
        }
        if error.code == .notFound, onServer, exit == .cannotCreate {
            return "\(left); create the database (createdb, or CREATE DATABASE) or fix its name in the URL"
        }
        switch exit {
        case .locked:
            if error.message.contains("while it was being copied") {
                return "run again when nothing else writes to \(source)"
            }
            if onServer, let location = error.path {
                return "another session holds a lock the copy waited for on \(location); \(left); run again when it has finished"
            }
            let file = error.path.map { LiteralPath.url($0).lastPathComponent } ?? "the store"
            return "another process is using \(file); run again when it has finished"
        case .sourceUnavailable:
            if GDBMDataStore.isNeedsRecovery(error) {
                return "run again with --recover: persist-migrate recovers a copy and copies from that, leaving \(source) "
                    + "as it is"
            }
            if error.message.contains("not in Persist's native layout") {
                return "leave out --from-layout to have the layout detected, or give --from-layout raw"
            }
            if SQLiteDataStore.isHotJournal(error) {
                return "\(source) has a hot journal, \(source)-journal: a program stopped in the middle of writing it, "
                    + "and the source is opened read-only, so that write cannot be rolled back here; open it once with "
                    + "a program that may write it (sqlite3 \(source) 'PRAGMA quick_check'), which rolls it back, then "
                    + "copy it"
            }
            if error.message.contains("unfinished commit") {
                return "open it once with the program that wrote it, to finish its last commit, then copy it"
            }
            if job?.source.kind == .postgresql {
                return error.code == .readOnly
                    ? "the role in the URL may not read \(source): grant it USAGE on the schema and SELECT on its tables"
                    : "check that the URL names a database and schema the role in it can read"
            }
            switch error.code {
            case .unsupported: return "it was written by a newer version of Persist; copy it with that version"
            case .notFound: return "check the path of the store to copy"
            case .locked: return "another process is using \(source); run again when it has finished"
            default: return "check that \(source) is a readable SQLite database or GDBM file"
            }
        case .cannotCreate:
            switch error.code {
            case .alreadyExists:
                guard options.ifExists == .fail else { return left }
                let elsewhere = job?.target.kind == .postgresql ? "another schema (?schema=NAME)" : "another target path"
                return "\(left); to copy into a target that already holds these items, pass --if-exists replace or "
                    + "--if-exists skip, or choose \(elsewhere)"
            case .notFound:
                // A link to a file not made yet: the folder is the one the link leads into.
                let folder = FileSystem.directory(of: FileSystem.danglingLinkDestination(target) ?? target)
                switch FileSystem.entry(folder) {
                case .missing:
                    return "the folder \(folder) does not exist\(FileSystem.unexpandedTildeNote(folder)); create it, or "
                        + "choose another target path"
                case .directory:
                    return "the folder \(folder) cannot be written; check its permissions, or choose another target path"
                default:
                    return "\(folder) is not a folder; choose another target path"
                }
            case .readOnly where job?.target.kind == .postgresql:
                return "\(left); the role in the URL may not create or write in \(target): grant it CREATE on the "
                    + "database (for a new schema) or on the schema, or name a schema it owns"
            case .readOnly:
                return "\(target) or its folder cannot be written; check their permissions, or choose another target path"
            case .invalidArgument:
                return "give the path of a file, not of a directory"
            case .corrupt, .unsupported:
                return "persist-migrate adds only to stores it can read, and never overwrites anything else; choose "
                    + "another target path"
            default:
                return "\(left); choose another target path"
            }
        case .dataError:
            if error.message.contains("verification failed") {
                return "\(left); run again, and report it if it happens again"
            }
            if let reshaping = ReshapeOptions.hint(for: error.message) { return "\(left); \(reshaping)" }
            if error.code == .referenceViolation {
                return "\(left); the source's items break one of its own relations (foreign keys): fix the item named "
                    + "above in \(source), or copy without relations with --drop-relations"
            }
            if error.message.contains("attribute on the way") || error.message.contains("attributes on the way") {
                // A column name the target cannot hold as it is (too long, a system column's, or one
                // only case tells from another).
                return "\(left); give the column named above another name with --rename-attribute TYPE.COLUMN=NEW"
            }
            if job?.isSource(error.path) == true,
               error.message.contains("a copy would lose them") || error.message.contains("cannot be copied exactly") {
                return "\(left); rename or convert each such column in \(source) with SQL, or leave its type out "
                    + "with --types"
            }
            if job?.isSource(error.path) == true {
                return "\(left); the item named above cannot be read from \(source): leave its type out with --types, or "
                    + "repair it"
            }
            let layout = job?.target.kind == .gdbm && job?.target.layout.isRaw == true
                ? " (the raw layout holds only items of one type with bytes: --to-layout native holds any)" : ""
            guard !error.items.isEmpty else {
                // A check no single item failed, such as a deferred constraint at commit.
                return "\(left); \(target) refused the copy as a whole, as said above"
            }
            return "\(left); \(target) cannot hold the item named above as it is\(layout); leave its type out with --types"
        case .ioError:
            return "\(left); check free disk space and permissions"
        case .unavailable:
            return "\(left); start the server or check the URL's host and port, then run again"
        case .authentication:
            let urls = [job?.source.postgres, job?.target.postgres].compactMap { $0 }
            let refused = urls.first { $0.location == error.path } ?? urls.first
            let password = refused?.hasPassword == false
                ? "the password (the URL has none, so it came from PGPASSWORD or ~/.pgpass, if either gave one)"
                : "the password in the URL (percent-encode @ : / ? # in a password)"
            return "\(left); check the user name and \(password), and the server's pg_hba.conf"
        case .ok, .usage, .software, .interrupted, .terminated:
            return nil
        }
    }
}
