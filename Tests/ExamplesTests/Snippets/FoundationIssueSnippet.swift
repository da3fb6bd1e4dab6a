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
var request = DataStoreRequest(itemType: "Restaurant")
request.setFilter(whereAttribute: "name", equalsValue: "Pizza Place")
request.setSort(byKey: "rating", ascending: false)
request.limit = 10
let found: Item? = try store.read { accessor in try accessor.firstItem(forRequest: request) }
assert(found?.id == id && found?["rating"] == 4)
request.filter = .attribute("rating") >= 3 && !(.attribute("open") == false)
let count = try store.read { accessor in try accessor.countItems(forRequest: request) }
try store.writeSync { accessor in
    for item in try accessor.mutableItems(forRequest: request) { item["rating"] = 5 }
    if let item = try accessor.firstMutableItem(forRequest: request) { try accessor.delete(item: item) }
}
store.writeAsync({ accessor in try accessor.deleteAllItems(ofType: "Restaurant") },
                 completion: { result in print(result) })
try store.flush()
let left = try await store.read { accessor in try accessor.items(forRequest: request) }
try store.tearDown()
