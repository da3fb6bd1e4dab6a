import Foundation
import Persist
import PersistConformance
import PersistSQLite
import PersistTestSupport
import Testing

/// An item several of whose values legacy columns refuse is refused naming one column, the same
/// whichever way the item is written and however its attributes happen to be ordered.
@Suite("SQLite names the first legacy column that refuses a value")
struct LegacyRefusalOrderTests {
    private struct Person: DataStoreEntity {
        static let itemType = "people"
        var id: Int
        var name: String
        var flag: Bool
        var born: Date
    }

    @Test("the refusal names the first refusing column in table order, for items and entities alike")
    func firstRefusingColumn() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("legacy.sqlite")
        let raw = try RawDatabase(path)
        try raw.exec("CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT, flag BOOLEAN, born DATETIME)")
        raw.close()
        let store = SQLiteDataStore(path: path, options: quietOptions())
        try store.setup()
        defer { try? store.tearDown() }
        let born = Date(timeIntervalSinceReferenceDate: 1_000)
        // Dictionaries built in different orders and sizes iterate their keys in different orders.
        for round in 0..<24 {
            var attributes: [String: Value] = Dictionary(minimumCapacity: 3 + round)
            let entries: [(String, Value)] = [("born", .date(born)), ("flag", .bool(true)), ("name", "Ann")]
            for (name, value) in round.isMultiple(of: 2) ? entries : entries.reversed() { attributes[name] = value }
            let error = expectError(.typeMismatch) {
                try store.writeSync { try $0.insert(Item(itemType: "people", id: .int(Int64(round)), attributes: attributes)) }
            }
            #expect(error?.message.contains("column \"flag\"") == true, "round \(round): \(error?.message ?? "")")
        }
        let typed = expectError(.typeMismatch) {
            try store.writeSync { try $0.insert(Person(id: 99, name: "Ann", flag: true, born: born)) }
        }
        #expect(typed?.message.contains("column \"flag\"") == true, "\(typed?.message ?? "")")
        #expect(try store.read { try $0.countItems(forRequest: DataStoreRequest(itemType: "people")) } == 0)
    }
}
