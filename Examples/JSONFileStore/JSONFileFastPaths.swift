import Foundation

/// How often a `JSONFileStore` took each of the fast paths it opts into: what shows that the
/// library takes them.
///
/// ```swift
/// let store = JSONFileStore(path: "notes.json")
/// try store.setup()
/// _ = try store.read { accessor in try accessor.getAll(Note.self) }
/// print(store.fastPaths.entityRowsRead)   // one per note
/// ```
public struct JSONFileFastPaths: Sendable, Equatable {
    /// Write transactions the engine opened for a bulk load (``JSONFileTransaction/bulkInsert(_:)``).
    public var bulkWrites = 0
    /// Items loaded through ``JSONFileTransaction/bulkInsert(_:)``.
    public var bulkInserted = 0
    /// Entities decoded from rows (``JSONFileTransaction/forEachEntityRow(matching:_:)`` and
    /// ``JSONFileTransaction/withEntityRow(ofType:id:_:)``).
    public var entityRowsRead = 0
    /// Entities written as rows, through the sinks of ``JSONFileTransaction/entityRowSink(forType:)``.
    public var entityRowsWritten = 0

    public init() {}

    /// Adds the counts of `other`.
    mutating func add(_ other: JSONFileFastPaths) {
        bulkWrites += other.bulkWrites
        bulkInserted += other.bulkInserted
        entityRowsRead += other.entityRowsRead
        entityRowsWritten += other.entityRowsWritten
    }
}

/// The counts of every block of one store, added up as each block ends.
final class JSONFileFastPathCounter: @unchecked Sendable {
    // @unchecked Sendable: `counts` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var counts = JSONFileFastPaths()

    var value: JSONFileFastPaths { lock.withLock { counts } }

    func add(_ block: JSONFileFastPaths) {
        lock.withLock { counts.add(block) }
    }
}
