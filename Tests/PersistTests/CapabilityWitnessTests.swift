import Persist
import Testing

// Engines, readers and writers that opt into capabilities only by conforming, each in an extension
// of its own apart from the declaration, as a wrapper outside the package would; and a writer
// that inherits its reader's conformances, as SQLiteWriter inherits SQLiteReader's.

private final class PlainEngine: DataStoreEngine {
    let location = "plain"
    func open() throws {}
    func close() throws {}
    func read<T>(_ body: (any StoreReader) throws -> T) throws -> T { try body(EmptyWriter()) }
    func write<T>(_ body: (any StoreWriter) throws -> (value: T, commit: Bool)) throws -> T { try body(EmptyWriter()).value }
}

private final class CapableEngine: DataStoreEngine {
    let location = "capable"
    func open() throws {}
    func close() throws {}
    func read<T>(_ body: (any StoreReader) throws -> T) throws -> T { try body(RowReader()) }
    func write<T>(_ body: (any StoreWriter) throws -> (value: T, commit: Bool)) throws -> T { try body(RowWriter()).value }
}

extension CapableEngine: BulkLoadingEngine {
    func bulkWrite<T>(_ body: (any BulkLoadWriter) throws -> (value: T, commit: Bool)) throws -> T {
        try body(RowWriter()).value
    }
}

extension CapableEngine: ExternalChangeSource {
    var externalChangePollInterval: Duration { .milliseconds(50) }
    func beginWatchingExternalChanges() throws {}
    func pollExternalChanges() throws -> Bool { false }
    func endWatchingExternalChanges() {}
}

/// A reader of nothing whose reading capabilities are declared in extensions.
private class RowReader: StoreReader {
    func item(ofType itemType: String, id: ItemID) throws -> Item? { nil }
    func forEachItem(matching request: DataStoreRequest, _ body: (Item) throws -> Bool) throws {}
    func countItems(matching request: DataStoreRequest) throws -> Int { 0 }
    func itemTypes() throws -> [String] { [] }
}

extension RowReader: RowStreamingReader {
    func forEachRow(ofTypes types: Set<String>?, _ body: (ItemRow) throws -> Bool) throws {}
    func countRows(ofTypes types: Set<String>?) throws -> (total: Int, perType: [String: Int]?) { (0, [:]) }
}

extension RowReader: EntityRowReading {
    func forEachEntityRow(matching request: DataStoreRequest, _ body: (any EntityRowSource) throws -> Bool) throws {}
    func withEntityRow<T>(ofType itemType: String, id: ItemID, _ body: (any EntityRowSource) throws -> T) throws -> T? { nil }
}

/// A writer that inherits the reading capabilities and declares the writing ones in extensions.
private final class RowWriter: RowReader, StoreWriter {
    func insert(_ item: Item) throws {}
    func save(_ item: Item) throws {}
    func deleteItem(ofType itemType: String, id: ItemID) throws -> Bool { false }
    func deleteAllItems(ofType itemType: String) throws -> Int { 0 }
}

extension RowWriter: BulkLoadWriter {
    func bulkInsert(_ rows: ArraySlice<ItemRow>) throws {}
    func finishBulkLoad() throws {}
    var rollsBackBulkInserts: Bool { true }
}

extension RowWriter: EntityRowWriting {
    func entityRowSink(forType itemType: String) -> any EntityRowSink { RowSink() }
}

private final class RowSink: EntityRowSink {
    func insert(_ row: EntityRow) throws {}
    func save(_ row: EntityRow) throws {}
    func update(_ row: EntityRow) throws -> Bool { false }
}

/// Whether `capability` is `object` itself.
private func isSelf(_ capability: AnyObject?, _ object: AnyObject) -> Bool {
    capability.map { $0 === object } ?? false
}

@Suite("An engine opts into a capability by conforming, with no cast")
struct CapabilityWitnessTests {
    @Test("an engine conforming in an extension is seen with each capability; one that does not, with none")
    func engines() {
        let capable: any DataStoreEngine = CapableEngine()
        #expect(isSelf(capable.bulkLoading, capable))
        #expect(isSelf(capable.externalChanges, capable))
        let plain: any DataStoreEngine = PlainEngine()
        #expect(plain.bulkLoading == nil)
        #expect(plain.externalChanges == nil)
        #expect(!plain.isTransient(DataStoreError(.io, "the server is restarting")))
    }

    @Test("a reader conforming in extensions is seen with its reading capabilities")
    func reader() {
        let reader: any StoreReader = RowReader()
        #expect(isSelf(reader.rowStreaming, reader))
        #expect(isSelf(reader.entityRows, reader))
        #expect(!reader.comparesTypeNamesByBytes)
    }

    @Test("a writer subclassing such a reader has the reader's capabilities and its own")
    func subclassWriter() {
        let writer: any StoreWriter = RowWriter()
        #expect(isSelf(writer.rowStreaming, writer))
        #expect(isSelf(writer.entityRows, writer))
        #expect(isSelf(writer.bulkLoader, writer))
        #expect(isSelf(writer.entityRowWriting, writer))
        // Seen the same through the reader protocol and in generic code.
        let asReader: any StoreReader = writer
        #expect(isSelf(asReader.entityRows, writer))
        let concrete = RowWriter()
        #expect(isSelf(Self.bulkLoader(of: concrete), concrete))
    }

    @Test("a reader and writer that conform to nothing have the defaults")
    func plainWriter() throws {
        let writer: any StoreWriter = EmptyWriter()
        #expect(writer.rowStreaming == nil)
        #expect(writer.entityRows == nil)
        #expect(writer.bulkLoader == nil)
        #expect(writer.entityRowWriting == nil)
        #expect(!writer.comparesTypeNamesByBytes)
        #expect(!writer.takesEachIntegerIDFromSequence(ofType: "Todo"))
        try writer.checkGeneratedIntegerID(.max, ofType: "Todo")
    }

    @Test("the scheduler of an engine-backed store is every DataStore's writeScheduler")
    func writeScheduler() {
        let store = EngineStore(PlainEngine())
        #expect((store as any DataStore).writeScheduler === store.scheduler)
    }

    /// A writer's bulk loader, found in generic code.
    private static func bulkLoader<W: StoreWriter>(of writer: W) -> (any BulkLoadWriter)? {
        writer.bulkLoader
    }
}
