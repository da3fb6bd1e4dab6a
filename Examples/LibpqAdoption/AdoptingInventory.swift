import CLibPQ
import Foundation
import Persist
import PersistPostgres

/// The "during": the same table opened as a `DataStore`, nothing converted. Listing and adding
/// have moved to the accessor API; marking sold still runs the legacy SQL, through the store's
/// escape hatch on its own connection, serialized with the store's writes.
final class AdoptingInventory {
    let store: PostgresDataStore

    init(url: String, schema: String) throws {
        store = PostgresDataStore(url: url, options: .init(schema: schema))
        try store.setup()
    }

    // Moved: a write block instead of an INSERT.
    func add(_ id: Int, _ name: String, price: Decimal) throws {
        try store.writeSync { accessor in
            let product = try accessor.createItem(ofType: "product", id: .int(Int64(id)))
            product["name"] = .string(name)
            product["price"] = .decimal(price)
        }
    }

    // Not moved yet: the legacy statement, run on the store's own connection.
    func markSold(_ id: Int) throws {
        try store.withRawHandle { connection in
            let result = PQexec(connection, "UPDATE product SET sold = true WHERE id = \(id)")
            defer { PQclear(result) }
            guard PQresultStatus(result) == PGRES_COMMAND_OK else {
                throw LegacyError(String(cString: PQerrorMessage(connection)))
            }
        }
    }

    // Moved: a request instead of a SELECT.
    func unsoldNames() throws -> [String] {
        var request = DataStoreRequest(itemType: "product")
        request.setFilter(whereAttribute: "sold", equalsValue: false)
        return try store.read { accessor in
            try accessor.items(forRequest: request).compactMap { $0["name"]?.stringValue }
        }
    }
}
