/// What the `///` comments' examples take as given, declared for the compiler once for all of them.
enum DocCommentPrelude {
    /// A user's file imports the libraries, and a wrapper's raw handle needs the C library.
    static let imports: Set<String> = ["Persist", "PersistSQL", "PersistSQLite", "PersistGDBM", "PersistPostgres", "PersistConformance",
                                       "CSQLite", "CLibPQ", "Logging", "Testing"]

    /// The store a module's comments use: the module's own where it has one.
    static let stores = ["PersistSQL": "SQLiteDataStore", "PersistSQLite": "SQLiteDataStore", "PersistGDBM": "GDBMDataStore",
                         "PersistPostgres": "PostgresDataStore"]

    /// The values the comments of `module` name without making them: an open store, a migration's
    /// parts…, as the parameters of the function each example becomes.
    static func given(in module: String) -> String {
        (["store: \(stores[module] ?? "any DataStore")"] + given).joined(separator: ", ")
    }

    static let given = [
        "basket: ChildDataStore", "child: ChildDataStore", "userConfirmed: Bool",
        "old: any DataStore", "new: any DataStore", "migration: Migration", "options: inout MigrationOptions",
        "report: MigrationReport", "signalSource: any DispatchSourceSignal",
        "reader: any StoreReader", "writer: any StoreWriter", "item: Item", "todo: Item", "path: String",
        "request: DataStoreRequest", "allRestaurants: [Item]", "restaurant: Restaurant", "fromServer: [Restaurant]",
        "bytes: [UInt8]", "value: [UInt8]", "factory: StoreFactory", "directory: URL", "items: [Item]",
        "input: [UInt8]", "savedInput: URL", "error: DataStoreError", "url: PostgresURL",
        "plan: EntityPlan", "entityRow: EntityRow", "rowSource: any EntityRowSource", "rowSink: any EntityRowSink",
        "columns: any EntityRowColumns", "schema: any CarriedSchema", "schemas: [any CarriedSchema]",
        "reshape: MigrationReshape", "describing: any SchemaDescribingReader", "recreating: any SchemaRecreatingWriter",
        "track: Item", "album: Item", "order: Item", "result: IncludedItems", "byAlbum: DataStoreRelation",
        "trackAlbum: DataStoreRelation", "albumArtist: DataStoreRelation", "lineOrder: DataStoreRelation",
        "orderCustomer: DataStoreRelation",
    ]

    /// Types and functions the comments name without declaring them.
    static let code = """
        /// The entity most comments use.
        private struct Restaurant: DataStoreEntity {
            static let itemType = "Restaurant"
            var id: String
            var name: String
            var rating: Int
        }

        private struct Address: Codable, Sendable {
            var street: String
            var city: String
        }

        private struct Todo: DataStoreEntity {
            static let itemType = "Todo"
            var id: Int
            var title: String
        }

        /// An entity keyed by two fields, as a composite primary key keys its table.
        private struct LineID: Codable, Hashable, Sendable {
            var playlistId: Int64
            var trackId: Int64
        }

        private struct PlaylistLine: DataStoreEntity {
            static let itemType = "PlaylistTrack"
            var id: LineID
        }

        /// The entities the relation comments follow: albums and their tracks, orders and their
        /// lines and customers.
        private struct Album: DataStoreEntity {
            static let itemType = "Album"
            var id: Int64
            var title: String
        }

        private struct Track: DataStoreEntity {
            static let itemType = "Track"
            var id: Int64
            var albumId: Int64?
        }

        private struct Customer: DataStoreEntity {
            static let itemType = "Customer"
            var id: Int64
        }

        private struct OrderLine: DataStoreEntity {
            static let itemType = "OrderLine"
            var id: Int64
            var orderId: Int64
        }

        /// The engine of the reader's own wrapper, as the engine comments sketch it.
        private final class MyEngine: DataStoreEngine {
            let location = "/tmp/my.store"
            init(path: String) {}
            /// The engine's own record of the last change it saw.
            var baseline: Int? { get { elided() } set {} }
            func readChangeCounter() throws -> Int { elided() }
            func withHandle<T>(_ body: (OpaquePointer) throws -> T) throws -> T { elided() }
            func open() throws {}
            func close() throws {}
            func read<T>(_ body: (any StoreReader) throws -> T) throws -> T { elided() }
            func write<T>(_ body: (any StoreWriter) throws -> (value: T, commit: Bool)) throws -> T { elided() }
        }

        /// The reader and writer of the reader's own wrapper, which the capability comments extend.
        private class MyReader: StoreReader {
            func item(ofType itemType: String, id: ItemID) throws -> Item? { elided() }
            func forEachItem(matching request: DataStoreRequest, _ body: (Item) throws -> Bool) throws { elided() }
            func countItems(matching request: DataStoreRequest) throws -> Int { elided() }
            func itemTypes() throws -> [String] { elided() }
        }

        private final class MyWriter: MyReader, StoreWriter {
            func insert(_ item: Item) throws { elided() }
            func save(_ item: Item) throws { elided() }
            func deleteItem(ofType itemType: String, id: ItemID) throws -> Bool { elided() }
            func deleteAllItems(ofType itemType: String) throws -> Int { elided() }
        }

        /// What the members a wrapper's engine adds for live queries use.
        private class EngineMembers {
            var baseline: Int?
            func readChangeCounter() throws -> Int { elided() }
        }

        /// What the members of a wrapper's store use.
        private class StoreMembers {
            typealias RawHandle = OpaquePointer
            let scheduler: WriteScheduler
            let engine: MyEngine
            init(scheduler: WriteScheduler, engine: MyEngine) {
                self.scheduler = scheduler
                self.engine = engine
            }
        }

        /// The reader's own store, in the conformance comments.
        private typealias MyStore = SQLiteDataStore

        /// A store on a database server whose place is a schema, as the StoreFactory comment sketches one.
        private typealias ServerStore = PostgresDataStore
        private extension PostgresDataStore {
            convenience init(url: PostgresURL, schema: String) { self.init(url: url, options: .init(schema: schema)) }
        }
        private func schemaName(for directory: URL) -> String { directory.lastPathComponent }

        /// The app's own code that shows a list.
        private func render(_ todos: [Item]) {}
        private func show(_ restaurants: [Restaurant]) {}
        """

    /// The class whose members the examples of a file are, by file: a requirement's example shows
    /// the member a conforming type writes.
    static let memberContexts: [String: String] = [
        "Sources/Persist/Engine/ExternalChangeSource.swift": "EngineMembers",
        "Sources/Persist/Engine/WriteScheduler.swift": "StoreMembers",
    ]
}
