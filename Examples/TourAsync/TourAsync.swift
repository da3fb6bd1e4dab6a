// TourAsync: the README's tour inside an async function, as the README shows it.
import Persist
import PersistSQLite

@main
struct TourAsync {
    static func main() async throws {
        try await tour()
    }

    static func tour() async throws {
        let store: any DataStore = SQLiteDataStore(path: "restaurants.sqlite")
        try store.setup()
        try await store.write { accessor in
            let restaurant = try accessor.createItem(ofType: "Restaurant")
            restaurant["name"] = "Pizza Place"
            restaurant["rating"] = 4
        }
        var request = DataStoreRequest(itemType: "Restaurant")
        request.filter = .attribute("rating") >= 3 && .attribute("name").beginsWith("Pizza")
        request.setSort(byKey: "rating", ascending: false)
        let best: [Item] = try await store.read { [request] accessor in try accessor.items(forRequest: request) }
        try store.tearDown()
        print("best: \(best.compactMap { $0["name"]?.stringValue }.joined(separator: ", "))")
    }
}
