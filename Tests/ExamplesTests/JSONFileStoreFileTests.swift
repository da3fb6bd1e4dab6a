import Foundation
import JSONFileStore
import Persist
import PersistTestSupport
import Testing

@Suite("JSONFileStore refuses a damaged file")
struct JSONFileStoreFileTests {
    /// One stored item of the file format: type, then base64 of the binary-coded identifier and values.
    static func entry(type: String, id: Value, attributes: [String: Value] = [:]) -> [String: Any] {
        func text(_ value: Value) -> String { Data(BinaryValueCoding.encode(value)).base64EncodedString() }
        return ["type": type, "id": text(id), "attributes": attributes.mapValues(text)]
    }

    @Test("a file holding one item twice is corrupt, not a crash")
    func duplicateItem() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("items.json")
        // Written by hand or by another program: the same note twice, with different texts.
        let entries = [Self.entry(type: "Note", id: .int(1), attributes: ["text": "first"]),
                       Self.entry(type: "Note", id: .int(1), attributes: ["text": "second"])]
        try JSONSerialization.data(withJSONObject: entries).write(to: URL(fileURLWithPath: path))
        let store = JSONFileStore(path: path)
        let error = try #require(throws: DataStoreError.self) { try store.setup() }
        #expect(error.code == .corrupt)
        #expect(error.path == path)
        #expect(error.message.contains("Note") && error.message.contains("twice"), "\(error.message)")
        try store.tearDown()
    }
}
