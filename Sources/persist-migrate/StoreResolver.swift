import ArgumentParser
import Foundation
import Persist
import PersistGDBM
import PersistPostgres

/// A store the tool will open, with where its kind and layout came from.
struct StorePlan: Sendable {
    /// Where the kind was learnt: named on the command line, found in the file, or read from the
    /// new file's extension.
    enum KindOrigin: String, Sendable {
        case named, content, `extension`
    }

    var kind: StoreName.Kind
    var path: String
    var kindOrigin: KindOrigin
    /// The GDBM layout (ignored for SQLite).
    var layout: GDBMDataStore.Options.Layout = .native
    /// Whether the layout was detected rather than given with --from-layout or --to-layout.
    var layoutDetected = false
    /// Whether the layout was given with --from-layout or --to-layout.
    var layoutGiven = false
    /// What the file is, when it exists.
    var finding: StoreDetector.Finding
    /// A GDBM source that GDBM found not closed cleanly: its layout is detected on the recovered copy.
    var needsRecovery = false

    var exists: Bool {
        switch finding {
        case .missing: false
        default: true
        }
    }

    /// The PostgreSQL database, with its password (for connecting only; ``path`` is the redacted URL).
    var postgres: PostgresURL?

    /// A PostgreSQL database named by its URL.
    static func server(_ url: PostgresURL) -> StorePlan {
        StorePlan(kind: .postgresql, path: url.redacted, kindOrigin: .named, finding: .missing, postgres: url)
    }

    /// `kind:path`, as the summary writes it.
    var name: String { kind.isFile ? "\(kind.rawValue):\(path)" : path }
}

/// Turns what was typed — `--from`/`--to` values and positional paths — into the two stores,
/// detecting kinds and layouts from the files as needed. Every malformed name gets a usage error
/// (64) that says what is missing; a source that is no store fails with 66, a target the tool
/// cannot add to with 73.
struct StoreResolver {
    var from: StoreName?
    var to: StoreName?
    var paths: [String]
    var fromLayout: GDBMDataStore.Options.Layout?
    var toLayout: GDBMDataStore.Options.Layout?
    var rawType: String

    static let example = "persist-migrate old.db new.sqlite, or persist-migrate --from gdbm:old.db --to sqlite:new.sqlite"

    /// The source and target named on the command line, before looking at any file.
    func names() throws -> (source: StoreName, target: StoreName) {
        var remaining = paths[...]
        func complete(_ name: StoreName?, _ option: String, _ role: String) throws -> StoreName {
            switch name {
            case .some(.kindAndPath), .some(.path), .some(.postgres):
                if let name { return name }
            case .kind(.postgresql):
                guard let text = remaining.popFirst() else {
                    throw ValidationError("\(option) postgresql names the \(role)'s kind but no URL; give the URL after "
                                            + "the options (postgresql://user@host:port/db) or as \(option) itself")
                }
                return try StoreName.url(text, option: "the \(role)")
            case .kind(let kind):
                guard let path = remaining.popFirst() else {
                    throw ValidationError("\(option) \(kind.rawValue) names the \(role)'s kind but no path; give the path "
                                            + "after the options (persist-migrate --from gdbm --to sqlite old.db "
                                            + "new.sqlite) or write \(option) \(kind.rawValue):PATH")
                }
                if StoreName.looksLikeURL(path), !FileSystem.exists(path) {
                    // Not quoted: a URL may hold a password.
                    throw ValidationError("\(option) \(kind.rawValue) names the \(role) as \(kind.aFile), but the "
                                            + "\(role) given after the options is a URL; for a PostgreSQL database "
                                            + "write \(option) postgresql")
                }
                return .kindAndPath(kind, path)
            case nil:
                break
            }
            guard let text = remaining.popFirst() else {
                if paths.isEmpty && from == nil && to == nil {
                    throw ValidationError("name the source and the target: \(Self.example)")
                }
                throw ValidationError(role == "target"
                    ? "name the target too: give its path after the source's (persist-migrate old.db new.sqlite), "
                        + "or write --to KIND:PATH (kinds: \(StoreName.Kind.list))"
                    : "name the source too: give its path before the target's, or write --from KIND:PATH "
                        + "(kinds: \(StoreName.Kind.list))")
            }
            if text.contains("://") { return try StoreName.url(text, option: "the \(role)") }
            // A positional store may be kind:path too; a bare kind word there is a file's name.
            if let colon = text.firstIndex(of: ":"), let kind = StoreName.Kind(rawValue: text[..<colon].lowercased()),
               kind.isFile, text.index(after: colon) < text.endIndex {
                return .kindAndPath(kind, String(text[text.index(after: colon)...]))
            }
            // Otherwise a name with a colon that is no file's is a malformed kind:path ("oracle:old.db",
            // "gdbm:"), refused as --from and --to refuse it rather than looked for as a file.
            if text.contains(":"), !FileSystem.exists(text) {
                if text.hasSuffix(":"), let kind = StoreName.Kind(rawValue: text.dropLast().lowercased()), kind.isFile {
                    throw ValidationError("\(String(reflecting: text)) names the \(role)'s kind but no path; write "
                                            + "\(text)PATH, or give the path alone")
                }
                return try StoreName(parsing: text, option: "the \(role)")
            }
            return .path(text)
        }
        let source = try complete(from, "--from", "source")
        let target = try complete(to, "--to", "target")
        if let extra = remaining.first {
            throw ValidationError("unexpected path \(String(reflecting: extra)): the source and the target are named "
                                    + "already (\(Self.describe(source)) and \(Self.describe(target)))"
                                    + Self.notAKind(from, "--from", "source") + Self.notAKind(to, "--to", "target"))
        }
        for name in [source, target] where name.path?.isEmpty == true {
            throw ValidationError("an empty path names no store; \(Self.example)")
        }
        return (source, target)
    }

    /// Why an option's word was taken for a path: a misspelled kind (`--from sqlit`) names no file,
    /// and the paths after the options then look like one too many.
    private static func notAKind(_ name: StoreName?, _ option: String, _ role: String) -> String {
        guard case .path(let path)? = name, !FileSystem.exists(path) else { return "" }
        return "; \(option) \(String(reflecting: path)) is no kind (the kinds are \(StoreName.Kind.list)) and no file, "
            + "so it was taken for the \(role)'s path"
    }

    private static func describe(_ name: StoreName) -> String {
        switch name {
        case .kindAndPath(let kind, let path): "\(kind.rawValue):\(path)"
        case .kind(let kind): kind.rawValue
        case .path(let path): path
        case .postgres(let url): url.redacted
        }
    }

    /// Resolves both stores: kinds, layouts, and what each file is.
    func resolve() throws -> (source: StorePlan, target: StorePlan) {
        let (sourceName, targetName) = try names()
        // The target's kind first: a usage error needs no file opened.
        var target: StorePlan
        if case .postgres(let url) = targetName {
            if url.schema.hasPrefix("pg_") {
                // The server refuses to create such a schema, and to write in its own (pg_catalog).
                throw ValidationError("the target's schema \(String(reflecting: url.schema)) begins with pg_, which "
                                        + "PostgreSQL keeps for its own schemas; name another with ?schema=NAME")
            }
            target = .server(url)
        } else {
            guard let targetPath = targetName.path else { throw ValidationError("name the target; \(Self.example)") }
            let targetFinding = StoreDetector.examine(targetPath)
            if targetPath.hasSuffix("/"), targetFinding != .directory {
                // Only a folder can be named so: the copy could be built, but never moved there.
                throw ToolFailure(.cannotCreate, code: "notAFile",
                                  "the target \(targetPath) ends in '/', so it names a folder, not a file",
                                  hint: "give the path of a file, without the '/' at the end")
            }
            let targetKind = try targetKind(targetName, targetPath, targetFinding)
            target = StorePlan(kind: targetKind.kind, path: targetPath, kindOrigin: targetKind.origin,
                               finding: targetFinding)
        }
        var source: StorePlan
        if case .postgres(let url) = sourceName {
            source = .server(url)
        } else {
            guard let sourcePath = sourceName.path else { throw ValidationError("name the source; \(Self.example)") }
            source = try sourcePlan(sourceName, sourcePath, StoreDetector.examine(sourcePath))
        }
        if let sourceURL = source.postgres, let targetURL = target.postgres {
            if sourceURL.location == targetURL.location && sourceURL.schema == targetURL.schema {
                throw ValidationError("the source and the target are the same PostgreSQL schema, \(source.path); copy to "
                                        + "another schema (?schema=NAME) or database")
            }
        } else if source.kind.isFile, target.kind.isFile, FileSystem.isSameFile(source.path, target.path) {
            throw ValidationError("the source and the target are the same file, \(source.path) (the same path, a "
                                    + "symbolic link or a hard link to it); copy to another file")
        }
        try checkLayoutOptions(source: source, target: target)
        if source.kind == .gdbm {
            if let fromLayout {
                source.layout = fromLayout.withRawType(rawType)
                source.layoutGiven = true
            }
            switch try detectedLayout(of: source, role: "source") {
            case nil:
                source.needsRecovery = true
            case let detected? where fromLayout == nil:
                source.layout = detected
                source.layoutDetected = true
            default:
                break
            }
        }
        if target.kind == .gdbm {
            if let toLayout {
                target.layout = toLayout.withRawType(rawType)
                target.layoutGiven = true
            } else if target.exists, case .gdbm = target.finding {
                // A target needing recovery fails when it is opened, with its own message.
                target.layout = try detectedLayout(of: target, role: "target") ?? .native
                target.layoutDetected = true
            } else {
                target.layout = .native
            }
        }
        return (source, target)
    }

    private func checkLayoutOptions(source: StorePlan, target: StorePlan) throws {
        if fromLayout?.isRaw == true && source.kind != .gdbm {
            throw ValidationError("--from-layout raw applies to GDBM sources only; \(source.path) is \(source.kind.aFile)")
        }
        if toLayout?.isRaw == true && target.kind != .gdbm {
            throw ValidationError("--to-layout raw applies to GDBM targets only; \(target.path) is \(target.kind.aFile)")
        }
    }

    /// The target's kind: as named, else from its content when it exists, else from its extension.
    private func targetKind(_ name: StoreName, _ path: String, _ finding: StoreDetector.Finding) throws
        -> (kind: StoreName.Kind, origin: StorePlan.KindOrigin)
    {
        if finding == .special {
            // Named with a kind or not: SQLite would open a device and write its pages to it, so
            // only a regular file is a target.
            throw ToolFailure(.cannotCreate, code: "unrecognized", "the target \(path) is \(StoreDetector.describe(finding))",
                              hint: "persist-migrate writes SQLite databases and GDBM files, never a device, pipe or "
                                + "socket; choose another target path")
        }
        if let kind = name.kind { return (kind, .named) }
        if let kind = StoreDetector.kind(of: finding) { return (kind, .content) }
        switch finding {
        case .missing, .empty:
            if let kind = StoreDetector.kind(forExtensionOf: path) { return (kind, .extension) }
            throw ValidationError("cannot tell which kind of store to \(finding == .missing ? "create" : "write") at \(path); "
                                    + "give its kind: --to sqlite (or gdbm) with the path, write sqlite:\(path), or use "
                                    + "a name ending in .sqlite, .sqlite3, .gdbm or .dbm")
        default:
            throw ToolFailure(.cannotCreate, code: "unrecognized",
                              "the target \(path) is \(StoreDetector.describe(finding))",
                              hint: "persist-migrate adds to SQLite databases and GDBM files only, and never overwrites "
                                + "anything else; choose another target path")
        }
    }

    /// The source's kind and what it is; a missing, empty or unrecognised source fails with 66.
    private func sourcePlan(_ name: StoreName, _ path: String, _ finding: StoreDetector.Finding) throws -> StorePlan {
        let named = name.kind
        switch finding {
        case .missing where path.hasSuffix("/") && FileSystem.exists(String(path.dropLast())):
            // stat says ENOTDIR: the name is a file's, the '/' asks for a folder.
            throw ToolFailure(.sourceUnavailable, code: "notAFolder",
                              "the source \(path) ends in '/', so it names a folder, but \(path.dropLast()) is a file",
                              hint: "give the path of the file, without the '/' at the end")
        case .missing:
            throw ToolFailure(.sourceUnavailable, code: "notFound", "there is no source at \(path)",
                              hint: "check the path of the store to copy\(FileSystem.unexpandedTildeNote(path))")
        case .directory, .special, .unreadable, .empty, .berkeleyDB, .unknown:
            throw ToolFailure(.sourceUnavailable, code: finding == .empty ? "empty" : "unrecognized",
                              "the source \(path) is \(StoreDetector.describe(finding))",
                              hint: "persist-migrate copies SQLite databases and GDBM files; check the path")
        case .sqlite, .gdbm:
            guard let found = StoreDetector.kind(of: finding) else { break }
            if let named, named != found {
                throw ToolFailure(.sourceUnavailable, code: "wrongKind",
                                  "the source \(path) is \(StoreDetector.describe(finding)), not \(named.aFile)",
                                  hint: "name it \(found.rawValue):\(path), or give the bare path to have its kind detected")
            }
            return StorePlan(kind: found, path: path, kindOrigin: named == nil ? .content : .named, finding: finding)
        }
        throw ToolFailure(.sourceUnavailable, code: "unrecognized", "the source \(path) is \(StoreDetector.describe(finding))")
    }

    private func detectedLayout(of plan: StorePlan, role: String) throws -> GDBMDataStore.Options.Layout? {
        try Self.detectLayout(path: plan.path, finding: plan.finding, role: role, rawType: rawType)
    }

    /// The layout of an existing GDBM file: native when it has Persist's format record, raw
    /// (with items of `rawType`) otherwise; `nil` for a file that needs recovery first.
    static func detectLayout(path: String, finding: StoreDetector.Finding, role: String, rawType: String) throws
        -> GDBMDataStore.Options.Layout?
    {
        if case .gdbm(.byteSwapped) = finding {
            throw ToolFailure(role == "source" ? .sourceUnavailable : .cannotCreate, code: "unsupported",
                              "the \(role) \(path) is \(StoreDetector.describe(finding)), which GDBM cannot open "
                                + "here", hint: "convert it on a machine of its byte order (gdbmtool export/import)")
        }
        switch try GDBMDataStore.examineFile(atPath: path, lockWait: GDBMDriver.lockWait) {
        case .native: return .native
        case .foreign: return GDBMDataStore.Options.Layout.raw().withRawType(rawType)
        case .needsRecovery: return nil
        }
    }
}
