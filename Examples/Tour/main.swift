// Tour: the README's tour of the API, run by a test in a directory of its own.
import Persist
import PersistSQLite

let store: any DataStore = SQLiteDataStore(path: "restaurants.sqlite")   // or GDBMDataStore, InMemoryDataStore
try store.setup()
try store.writeSync { accessor in
    let restaurant = try accessor.createItem(ofType: "Restaurant")
    restaurant["name"] = "Pizza Place"                 // saved when the block returns; a throw rolls back
    restaurant["rating"] = 4
}
var request = DataStoreRequest(itemType: "Restaurant")
request.filter = .attribute("rating") >= 3 && .attribute("name").beginsWith("Pizza")
request.setSort(byKey: "rating", ascending: false)
let best: [Item] = try store.read { accessor in try accessor.items(forRequest: request) }

let review = try store.makeChildDataStore()             // a scratch edit: a review being written...
try review.setup()
try review.writeSync { accessor in
    let pizza = try accessor.firstMutableItem(forRequest: request)
    pizza?["rating"] = 5
    pizza?["review"] = "Wood-fired, worth the wait"
}
try store.merge(review, policy: .fail)                  // ...merged in one atomic write (or dropped: Cancel)
try store.tearDown()
print("best: \(best.compactMap { $0["name"]?.stringValue }.joined(separator: ", "))")
try store.setup()
let merged = try store.read { accessor in try accessor.firstItem(forRequest: request) }
print("after the review: \(merged?["rating"] ?? "none"), \(merged?["review"] ?? "none")")
try store.tearDown()
