import CLibPQ
import Foundation

struct LegacyError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The "before": an inventory kept with libpq calls (`PQexecParams`, text parameters), on its
/// own table in its own schema.
final class LegacyInventory {
    let connection: OpaquePointer

    init(url: String, schema: String) throws {
        guard let connection = PQconnectdb(url), PQstatus(connection) == CONNECTION_OK else {
            throw LegacyError("cannot connect to \(url)")
        }
        self.connection = connection
        try run("SET client_min_messages = warning; CREATE SCHEMA IF NOT EXISTS \(schema); SET search_path TO \(schema); "
            + "CREATE TABLE IF NOT EXISTS product (id bigint PRIMARY KEY, name text NOT NULL, "
            + "price numeric(10,2), sold boolean NOT NULL DEFAULT false)")
    }

    deinit {
        PQfinish(connection)
    }

    private func run(_ sql: String) throws {
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else { throw LegacyError(String(cString: PQerrorMessage(connection))) }
    }

    func add(_ id: Int, _ name: String, price: String) throws {
        let values = [String(id), name, price]
        let result = withCStrings(values) { pointers in
            PQexecParams(connection, "INSERT INTO product (id, name, price) VALUES ($1, $2, $3)", 3, nil, pointers, nil, nil, 0)
        }
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else { throw LegacyError(String(cString: PQerrorMessage(connection))) }
    }

    func unsoldNames() throws -> [String] {
        let result = PQexec(connection, "SELECT name FROM product WHERE NOT sold ORDER BY id")
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_TUPLES_OK else { throw LegacyError(String(cString: PQerrorMessage(connection))) }
        return (0..<PQntuples(result)).map { String(cString: PQgetvalue(result, $0, 0)) }
    }

    func markSold(_ id: Int) throws {
        try run("UPDATE product SET sold = true WHERE id = \(id)")
    }
}

/// Calls `body` with C strings for `values`, kept alive for the call.
func withCStrings<R>(_ values: [String], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    let copies = values.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    return body(copies.map { UnsafePointer($0) })
}
