import Foundation
import PersistTestSupport
import Testing

/// One named bad input: `prepare` builds its files, `check` acts on them and checks the error
/// code or exit status and the message, and ``run()`` checks that every file is byte-identical
/// afterwards and that nothing but `creates` appeared.
struct BadInputCase: Sendable, CustomTestStringConvertible {
    let name: String
    /// Files the case makes on purpose (a migrated target, a new store), by name.
    var creates: Set<String> = []
    let prepare: @Sendable (BadInputScene) throws -> Void
    let check: @Sendable (BadInputScene) throws -> Void

    init(_ name: String, creates: Set<String> = [],
         prepare: @escaping @Sendable (BadInputScene) throws -> Void = { _ in },
         check: @escaping @Sendable (BadInputScene) throws -> Void) {
        self.name = name
        self.creates = creates
        self.prepare = prepare
        self.check = check
    }

    var testDescription: String { name }

    func run() throws {
        let scene = try BadInputScene()
        defer { scene.finish() }
        try prepare(scene)
        let before = try scene.snapshot()
        try check(scene)
        let after = try scene.snapshot()
        for (file, entry) in before.sorted(by: { $0.key < $1.key }) {
            #expect(after[file] == entry, "\(name): \(file) \(after[file] == nil ? "vanished" : "changed")")
        }
        let appeared = Set(after.keys).subtracting(before.keys)
        let unexpected = appeared.subtracting(creates).filter { !Self.isReadOnlyCompanion($0, before: before, after: after) }
        #expect(unexpected.isEmpty, "\(name): files appeared: \(unexpected.sorted())")
        #expect(creates.isSubset(of: appeared), "\(name): \(creates.subtracting(appeared).sorted()) not created")
    }

    /// Whether `file` is the `-wal` or `-shm` file SQLite creates beside a database in WAL mode when
    /// it opens it read-only: SQLite needs both even to read, and a read-only connection cannot
    /// remove them when it closes. They are tolerated when the database was there before and the
    /// log holds nothing.
    static func isReadOnlyCompanion(_ file: String, before: [String: BadInputScene.Entry],
                                    after: [String: BadInputScene.Entry]) -> Bool {
        guard file.hasSuffix("-wal") || file.hasSuffix("-shm") else { return false }
        let database = String(file.dropLast(4))
        guard case .file(let header)? = before[database], header.count >= 20,
              header.starts(with: Array("SQLite format 3\u{0}".utf8)), header[18] == 2, header[19] == 2
        else { return false }
        return after[database + "-wal"] == .file([])
    }
}
