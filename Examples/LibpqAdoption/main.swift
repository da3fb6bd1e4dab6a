// LibpqAdoption: an inventory moved from raw libpq calls onto Persist one call site at a time, on
// the same PostgreSQL table throughout: before, during, after. It needs a server: the URL in
// PERSIST_POSTGRES_URL (`make postgres` starts one and prints it).
import Foundation
import Persist
import PersistPostgres

guard let url = ProcessInfo.processInfo.environment["PERSIST_POSTGRES_URL"], !url.isEmpty else {
    FileHandle.standardError.write(Data("LibpqAdoption needs a PostgreSQL server: start one with `make postgres` and export the PERSIST_POSTGRES_URL it prints\n".utf8))
    exit(69)
}
let schema = "persist_example_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
defer { try? PostgresDataStore.dropSchema(schema, at: PostgresURL(url)) }

// Before: the legacy program creates and uses the table with libpq.
do {
    let legacy = try LegacyInventory(url: url, schema: schema)
    try legacy.add(1, "Kettle", price: "24.50")
    try legacy.add(2, "Toaster", price: "31.00")
    try legacy.markSold(1)
    print("before: \(try legacy.unsoldNames().joined(separator: ", "))")
}

// During: the same table as a DataStore; some call sites moved, one still on raw SQL.
do {
    let adopting = try AdoptingInventory(url: url, schema: schema)
    try adopting.add(3, "Teapot", price: Decimal(string: "12.75") ?? 0)
    try adopting.markSold(2)
    print("during: \(try adopting.unsoldNames().joined(separator: ", "))")
    // Legacy code keeps working on the same table meanwhile.
    let legacy = try LegacyInventory(url: url, schema: schema)
    print("during, legacy code sees: \(try legacy.unsoldNames().joined(separator: ", "))")
    try adopting.store.tearDown()
}

// After: all call sites on the DataStore API, with a typed entity.
let store = PostgresDataStore(url: url, options: .init(schema: schema))
try store.setup()
let inventory = Inventory(store: store)
try inventory.add(Product(id: 4, name: "Mug", price: Decimal(string: "6.50") ?? 0, sold: false))
try inventory.markSold(3)
print("after: \(try inventory.unsoldNames().joined(separator: ", "))")
let everything = try store.read { accessor in try accessor.getAll(Product.self) }
print("after: \(everything.count) products, \(everything.filter(\.sold).count) sold")
try store.tearDown()
