import Foundation
import Persist
import PersistConformance
import PersistTestSupport
import Testing

/// The directory one bad-input case works in, with the expectations the cases share. Every
/// expectation checks the error code (or exit status) and that the message names the file; the
/// runner (``BadInputCase/run()``) checks that the files are unchanged.
final class BadInputScene {
    let directory: TemporaryDirectory
    private var cleanups: [() -> Void] = []

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// Undoes what the case set up (holders, read-only attributes) and removes the directory.
    func finish() {
        for cleanup in cleanups.reversed() { cleanup() }
        directory.remove()
    }

    func path(_ name: String) -> String {
        directory.path(name)
    }

    // MARK: Setting up

    /// Writes `bytes` to the file `name`.
    func write(_ name: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path(name)))
    }

    /// `count` random bytes.
    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// Cuts the file `name` down to its first `length` bytes.
    func truncate(_ name: String, to length: Int) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path(name)))
        try handle.truncate(atOffset: UInt64(length))
        try handle.close()
    }

    /// Makes the file `name` unwritable until the case ends.
    func makeReadOnly(_ name: String) throws {
        let file = path(name)
        try ReadOnlyFile.makeReadOnly(file)
        cleanups.append { ReadOnlyFile.makeWritable(file) }
    }

    /// Has another process hold the GDBM file `name` open until the case ends.
    func hold(_ name: String, readOnly: Bool) throws {
        let holder = try ChildProcess(["gdbm-hold", path(name), readOnly ? "read-only" : "read-write"])
        cleanups.append { holder.closeInputAndWait() }
        guard holder.waitForLines(1), holder.lines.first == "ready" else {
            holder.kill()
            throw DataStoreError(.io, "the holder of \(name) did not start: \(holder.errorOutput)")
        }
    }

    // MARK: The library

    /// How a case opens a store.
    struct Opening: Sendable, CustomStringConvertible {
        var readOnly = false
        var createIfMissing = true

        static let readWrite = Opening()
        static let readOnly = Opening(readOnly: true)
        static let existingOnly = Opening(createIfMissing: false)

        var description: String { readOnly ? "read-only" : createIfMissing ? "read-write" : "read-write, not creating" }
    }

    /// Opens the store `name` of `kind` each way in `openings`; each must fail with `code` (and
    /// the engine's `engineCode`), an error whose path is the file and whose message names it
    /// (and mentions `hint`), leaving the store closed.
    func expectOpenFailure(
        _ kind: StoreKind, _ name: String, _ code: DataStoreError.Code, engineCode: Int? = nil, hint: String? = nil,
        openings: [Opening] = [.readWrite, .readOnly], raw: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let file = path(name)
        for opening in openings {
            let store = kind.store(file, readOnly: opening.readOnly, createIfMissing: opening.createIfMissing, raw: raw)
            let error = expectError(code, sourceLocation: sourceLocation) { try store.setup() }
            expectNames(error, file, hint: hint, "\(kind) \(opening)", sourceLocation: sourceLocation)
            if let engineCode {
                // SQLite reports extended codes; the primary code is the low byte.
                let primary = error?.engineCode.map { kind == .sqlite ? $0 & 0xFF : $0 }
                #expect(primary == engineCode, "\(kind) \(opening): \(String(describing: error))", sourceLocation: sourceLocation)
                #expect(error?.engineMessage?.isEmpty == false, "\(kind) \(opening): no engine message", sourceLocation: sourceLocation)
            }
            expectError(.misuse, sourceLocation: sourceLocation) { try store.read { _ in 1 } }
        }
    }

    /// Opens the store `name` of `kind` read-only and runs `body` in a read block, which must fail
    /// with `code`, naming the file and the item `item`.
    func expectReadFailure(
        _ kind: StoreKind, _ name: String, _ code: DataStoreError.Code, item: ItemReference,
        sourceLocation: SourceLocation = #_sourceLocation, _ body: (DataStoreReadAccessor) throws -> Void
    ) throws {
        let store = kind.store(path(name), readOnly: true, createIfMissing: false)
        try store.setup()
        defer { try? store.tearDown() }
        let error = expectError(code, sourceLocation: sourceLocation) { try store.read(body) }
        expectNames(error, path(name), hint: nil, "\(kind) read", sourceLocation: sourceLocation)
        #expect(error?.items == [item], "\(String(describing: error))", sourceLocation: sourceLocation)
    }

    /// Expects `error` to carry `file` as its path and to name it (and `hint`) in its message.
    func expectNames(_ error: DataStoreError?, _ file: String, hint: String?, _ what: String,
                     sourceLocation: SourceLocation = #_sourceLocation) {
        guard let error else { return }
        #expect(error.path == file, "\(what): the error's path is not \(file): \(error)", sourceLocation: sourceLocation)
        #expect(error.message.contains(file), "\(what): the message does not name \(file): \(error)",
                sourceLocation: sourceLocation)
        if let hint {
            #expect(error.message.contains(hint), "\(what): the message does not mention \(hint): \(error)",
                    sourceLocation: sourceLocation)
        }
    }

    // MARK: The tool

    /// Runs `persist-migrate` in the case's directory (without a progress display).
    func runTool(_ arguments: [String]) throws -> ProductRunner.Output {
        try ProductRunner.run("persist-migrate", arguments + ["--progress", "never"], in: directory.url)
    }

    /// Runs `persist-migrate`; it must exit with `status` and name `naming` on standard error.
    func expectTool(_ arguments: [String], exits status: Int32, naming: String,
                    sourceLocation: SourceLocation = #_sourceLocation) throws {
        let output = try runTool(arguments)
        #expect(output.status == status, "exit \(output.status): \(output.stderr)", sourceLocation: sourceLocation)
        #expect(output.stderr.contains(naming), "standard error does not name \(naming): \(output.stderr)",
                sourceLocation: sourceLocation)
    }

    /// Runs `persist-migrate`, which must succeed.
    func expectToolSucceeds(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let output = try runTool(arguments)
        #expect(output.status == 0, "exit \(output.status): \(output.stderr)", sourceLocation: sourceLocation)
    }

    // MARK: Files

    /// What a path in the directory holds.
    enum Entry: Equatable {
        case file([UInt8])
        case directory
    }

    /// Every file and folder under the directory, by path relative to it.
    func snapshot() throws -> [String: Entry] {
        var entries: [String: Entry] = [:]
        let root = directory.url.path
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return entries }
        while let name = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let full = root + "/" + name
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory) else { continue }
            entries[name] = isDirectory.boolValue ? .directory : .file(fileBytes(full) ?? [])
        }
        return entries
    }
}
