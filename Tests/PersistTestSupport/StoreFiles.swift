import Foundation
import Logging
import Persist
import PersistConformance
import PersistGDBM
import PersistSQLite

/// The two kinds of store file, named as `persist-migrate` and the crash worker name them.
public enum StoreKind: String, Sendable, CaseIterable, CustomStringConvertible {
    case sqlite, gdbm

    public var description: String { rawValue }

    /// A store on `path` of this kind (not set up), logging only critical messages.
    public func store(
        _ path: String, readOnly: Bool = false, createIfMissing: Bool = true, durability: Durability = .normal,
        raw: Bool = false
    ) -> any DataStore {
        switch self {
        case .sqlite:
            SQLiteDataStore(path: path, options: .init(durability: durability, readOnly: readOnly,
                                                       createIfMissing: createIfMissing, logger: StoreFiles.quiet))
        case .gdbm:
            GDBMDataStore(path: path, options: .init(durability: durability, readOnly: readOnly,
                                                     createIfMissing: createIfMissing,
                                                     layout: raw ? .raw(itemType: "Entry") : .native,
                                                     logger: StoreFiles.quiet))
        }
    }

    /// Deletes the store file at `path` and its companions (journal, WAL), if there are any.
    public func removeFiles(_ path: String) throws {
        switch self {
        case .sqlite: try SQLiteDataStore.deleteFiles(atPath: path)
        case .gdbm: try GDBMDataStore.deleteFiles(atPath: path)
        }
    }
}

/// Builds store files for tests and reads them back.
public enum StoreFiles {
    /// A logger for stores in tests: only critical messages.
    public static var quiet: Logger {
        var logger = Logger(label: "persist.tests")
        logger.logLevel = .critical
        return logger
    }

    /// A varied set of items of two types, every value kind included.
    public static func items(count: Int = 40) -> [Item] {
        let restaurants: [Item] = (0..<count).map { index in
            let attributes: [String: Value] = [
                "name": .string("Restaurant \(index) é\u{0}x"),
                "rating": .int(Int64(index % 5)),
                "open": .bool(index % 2 == 0),
                "score": .double(index == 3 ? -0.0 : Double(index) / 3),
                "updated": .date(Date(timeIntervalSinceReferenceDate: Double(index))),
                "logo": .bytes([UInt8(index % 256), 0, 255]),
                "tags": .array([.string("a"), .int(Int64(index))]),
                "address": .object(["city": .string("Leeds")]),
            ]
            return Item(itemType: "Restaurant", id: .int(Int64(index)), attributes: attributes)
        }
        let reviews: [Item] = (0..<count / 4).map { index in
            let stars: Value = .double(Double(index % 5) + 0.5)
            return Item(itemType: "Review", id: .string("review-\(index)"), attributes: ["stars": stars])
        }
        return restaurants + reviews
    }

    /// Creates a store of `kind` at `path` holding `items`, written in one block, and closes it.
    public static func create(_ kind: StoreKind, _ path: String, holding items: [Item]) throws {
        let store = kind.store(path)
        try store.setup()
        try seed(store, items)
        try store.tearDown()
    }

    /// A native GDBM store at `path` holding `items`.
    public static func gdbm(_ path: String, holding items: [Item]) throws {
        try create(.gdbm, path, holding: items)
    }

    /// An SQLite database at `path` holding `items`.
    public static func sqlite(_ path: String, holding items: [Item]) throws {
        try create(.sqlite, path, holding: items)
    }

    /// Every item of a store, opened read-only.
    public static func contents(_ kind: StoreKind, _ path: String, raw: Bool = false) throws -> Set<Item> {
        let store = kind.store(path, readOnly: true, createIfMissing: false, raw: raw)
        try store.setup()
        defer { try? store.tearDown() }
        return try store.read { accessor in
            Set(try accessor.itemTypes().flatMap { try accessor.items(forRequest: DataStoreRequest(itemType: $0)) })
        }
    }
}
