import CGDBM
import Foundation
import Persist
import PersistConformance
import PersistGDBM
import PersistTestSupport
import Testing

@Suite("Legacy code runs on the store's own GDBM handle")
struct EscapeHatchTests {
    @Test("legacy stores and fetches through withRawHandle meet the store's own items")
    func legacyCallsSeeTheStore() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("legacy.db")
        let store = GDBMDataStore(path: path, options: .init(layout: .raw(), logger: .quiet))
        try store.setup()
        try store.writeSync { accessor in
            try accessor.insert(Item(itemType: "Entry", id: .bytes(Array("new".utf8)), attributes: ["value": .bytes([1])]))
        }
        let fetched = try store.withRawHandle { handle -> [UInt8]? in
            let stored = ForeignFile.withDatum(Array("legacy".utf8)) { key in
                ForeignFile.withDatum(Array("written by old code".utf8)) { gdbm_store(handle, key, $0, GDBM_REPLACE) }
            }
            #expect(stored == 0)
            let value = ForeignFile.withDatum(Array("new".utf8)) { gdbm_fetch(handle, $0) }
            guard let pointer = value.dptr else { return nil }
            defer { free(pointer) }
            return [UInt8](UnsafeRawBufferPointer(start: pointer, count: Int(value.dsize)))
        }
        #expect(fetched == [1])
        #expect(try store.read { try $0.item(ofType: "Entry", id: .bytes(Array("legacy".utf8)))?["value"] }
            == .bytes(Array("written by old code".utf8)))
        try store.tearDown()
        #expect(try ForeignFile.pairs(path) == [Array("new".utf8): [1], Array("legacy".utf8): Array("written by old code".utf8)])
    }

    @Test("native records written by legacy code through GDBMStorageFormat read as items")
    func nativeRecordsFromLegacyCode() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = GDBMDataStore(path: directory.path("native.db"), options: .init(logger: .quiet))
        try store.setup()
        defer { try? store.tearDown() }
        let key = try GDBMStorageFormat.encodeKey(itemType: "Restaurant", id: 7)
        let record = try GDBMStorageFormat.encodeRecord(["name": "Pizza Place", "rating": 4])
        try store.withRawHandle { handle in
            let result = ForeignFile.withDatum(key) { keyDatum in ForeignFile.withDatum(record) { gdbm_store(handle, keyDatum, $0, GDBM_REPLACE) } }
            #expect(result == 0)
        }
        #expect(try store.read { try $0.item(ofType: "Restaurant", id: 7) }
            == Item(itemType: "Restaurant", id: 7, attributes: ["name": "Pizza Place", "rating": 4]))
    }

    @Test("gdbm_reorganize through withRawHandle rebuilds the file in place: write blocks and live queries go on with it")
    func legacyReorganize() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("legacy.db")
        try ForeignFile.create(path, pairs: [Array("old".utf8): [1]])
        let store = GDBMDataStore(path: path, options: .init(layout: .raw(), logger: .quiet))
        try store.setup()
        try store.writeSync { accessor in
            for byte in UInt8(0)..<100 { try accessor.save(Item(itemType: "Entry", id: .bytes([byte]), attributes: ["value": .bytes([])])) }
        }
        let stream = store.observe(DataStoreRequest(itemType: "Entry"))
        let seen = Locked<[Int]>([])
        let counts = Task { () throws in
            for try await items in stream {
                seen.withLock { $0.append(items.count) }
                if items.count == 2 { break }
            }
        }
        // A live query that ended or missed the last write would wait forever: stop it after a minute.
        let timeout = Task {
            try await Task.sleep(for: .seconds(60))
            counts.cancel()
        }
        defer {
            timeout.cancel()
            counts.cancel()
            try? store.tearDown()
        }
        while seen.value.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        let before = try #require(FileIdentity.existing(path))
        // Legacy code deletes most pairs and reorganizes, which renames a rebuilt file over the path.
        let reorganized = try store.withRawHandle { handle -> Int32 in
            for byte in UInt8(0)..<100 { _ = ForeignFile.withDatum([byte]) { gdbm_delete(handle, $0) } }
            return gdbm_reorganize(handle)
        }
        #expect(reorganized == 0)
        #expect(FileIdentity.existing(path) != before, "gdbm_reorganize no longer replaces the file; the test checks nothing")
        try store.writeSync { accessor in
            try accessor.save(Item(itemType: "Entry", id: .bytes(Array("new".utf8)), attributes: ["value": .bytes([2])]))
        }
        try await counts.value
        #expect(seen.value.first == 101 && seen.value.last == 2, "\(seen.value)")
        try store.tearDown()
        #expect(try ForeignFile.pairs(path) == [Array("old".utf8): [1], Array("new".utf8): [2]])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["legacy.db"])
    }

    @Test("withRawHandle inside a block, a block inside withRawHandle, or before setup is misuse, not a deadlock")
    func misuse() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = GDBMDataStore(path: directory.path("native.db"), options: .init(logger: .quiet))
        expectError(.misuse) { try store.withRawHandle { _ in 1 } }
        try store.setup()
        defer { try? store.tearDown() }
        _ = try store.read { _ in expectError(.misuse) { try store.withRawHandle { _ in 1 } } }
        try store.writeSync { _ in expectError(.misuse) { try store.withRawHandle { _ in 1 } } }
        try store.withRawHandle { _ in
            expectError(.misuse) { try store.read { _ in 1 } }
            expectError(.misuse) { try store.writeSync { _ in 1 } }
        }
        #expect(try store.read { _ in "still usable" } == "still usable")
    }
}
