import Foundation
@testable import PersistPostgres
import Testing

@Suite("The schema's fingerprint is never newer than the catalog the store read")
struct SchemaLoaderTests {
    /// Reads the schema in a READ COMMITTED transaction (as a write block does) while another
    /// connection commits a new table after the loader's statement number `pause`, for every
    /// `pause`: the schema read has the table, or a fingerprint that differs from the catalog's
    /// afterwards, so the next check reads it again. (A fingerprint read after the table, with a
    /// catalog read before it, made a store that had just opened try to create a table another
    /// process had created: "relation already exists".)
    @Test("a table committed while the schema is read is in it, or its fingerprint is older than the catalog")
    func commitWhileReading() throws {
        for pause in 0..<7 {
            try withTestSchema { connection, schema in
                let other = try TestServer.connect()
                defer { other.close() }
                var ran = 0
                let loader = SchemaLoader(run: { commands in
                    try commands.map { command in
                        let result = try connection.execute(command.sql, command.parameters, operation: command.operation)
                        ran += 1
                        if ran == pause + 1 { try other.executeScript("CREATE TABLE \(schema).late (id integer PRIMARY KEY)") }
                        return result
                    }
                }, schemaName: schema, defaultCollationIsBytewise: false)
                try connection.executeScript("BEGIN ISOLATION LEVEL READ COMMITTED")
                let loaded = try loader.load()
                try connection.executeScript("COMMIT")
                #expect(ran >= pause + 1)
                let after = try other.execute(SchemaFingerprint.query, [.text(schema)])
                let catalog = SchemaFingerprint(relations: try after.int64(0, 0) ?? 0, transactionSum: try after.int64(0, 1) ?? 0)
                #expect(loaded.tables["late"] != nil || loaded.fingerprint != catalog,
                        "the table was committed after statement \(pause + 1) of the loader")
            }
        }
    }
}
