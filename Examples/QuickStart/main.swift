// QuickStart: the DataStore API on the in-memory store, step by step.
//
// This is the foundation snippet from the project's first issue. One line differs: Swift resolves
// `try await store.read { … }` in a top-level `let` to the synchronous overload (and warns that
// nothing is awaited), so the asynchronous read runs here inside an async function instead.
import Persist

let store: any DataStore = InMemoryDataStore()
try store.setup()
let id: ItemID = try store.writeSync { accessor in
    let restaurant = try accessor.createItem(ofType: "Restaurant")
    restaurant["name"] = "Pizza Place"
    restaurant["rating"] = 4
    restaurant["open"] = true
    return restaurant.id
}
print("created Restaurant \(id)")
var request = DataStoreRequest(itemType: "Restaurant")
request.setFilter(whereAttribute: "name", equalsValue: "Pizza Place")
request.setSort(byKey: "rating", ascending: false)
request.limit = 10
let found: Item? = try store.read { accessor in try accessor.firstItem(forRequest: request) }
assert(found?.id == id && found?["rating"] == 4)
print("found \(found?["name"] ?? "nothing") rated \(found?["rating"] ?? "-")")
request.filter = .attribute("rating") >= 3 && !(.attribute("open") == false)
let count = try store.read { accessor in try accessor.countItems(forRequest: request) }
print("\(count) open restaurant(s) rated 3 or more")
try store.writeSync { accessor in
    for item in try accessor.mutableItems(forRequest: request) { item["rating"] = 5 }
    if let item = try accessor.firstMutableItem(forRequest: request) { try accessor.delete(item: item) }
}
store.writeAsync({ accessor in try accessor.deleteAllItems(ofType: "Restaurant") },
                 completion: { result in print("asynchronous delete finished: \(result)") })
try store.flush()

func remaining(_ request: DataStoreRequest) async throws -> [Item] {
    try await store.read { accessor in try accessor.items(forRequest: request) }
}
let left = try await remaining(request)
print("\(left.count) restaurant(s) left")
try store.tearDown()
