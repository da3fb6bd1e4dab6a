import Foundation
import Persist

extension PostgresDataStore {
    /// Drops a schema and everything in it (`DROP SCHEMA … CASCADE`): the explicit way to delete
    /// a store that has a schema of its own. Closing a store never does this. A schema that does
    /// not exist is not an error.
    ///
    /// ```swift
    /// try store.tearDown()
    /// try PostgresDataStore.dropSchema("scratch", at: PostgresURL("postgresql://app@localhost/shop"))
    /// ```
    ///
    /// - Throws: `invalidArgument` for `public`, `information_schema` and `pg_…` schemas (use
    ///   ``dropCreatedTables(at:schema:options:)`` for a store in `public`); the server's errors.
    public static func dropSchema(_ schema: String, at url: PostgresURL, options: Options = Options()) throws {
        if schema == PostgresURL.defaultSchema || schema == "information_schema" || schema.hasPrefix("pg_")
            || schema.isEmpty || schema.containsNUL || schema.utf8.count > SQLName.maximumBytes {
            throw DataStoreError(
                .invalidArgument,
                "the schema \(String(reflecting: schema)) of PostgreSQL at \(url.location) is not one a store may drop "
                    + "whole; drop only the store's own tables with PostgresDataStore.dropCreatedTables",
                path: url.location)
        }
        try withConnection(url, options) { connection in
            _ = try connection.execute("DROP SCHEMA IF EXISTS \(SQLName.quoted(schema)) CASCADE",
                                       operation: "Dropping schema \(String(reflecting: schema))")
        }
    }

    /// Drops the tables a store created in its schema (those its metadata lists), its metadata
    /// tables and its `persist_date` type when no adopted table uses it. Adopted tables, and the
    /// columns the store added to them, are left alone, but for the foreign keys of relations
    /// declared from them to a created table, which are dropped with it. Closing a store never does
    /// this; call it when no store has the schema open.
    ///
    /// ```swift
    /// try store.tearDown()
    /// try PostgresDataStore.dropCreatedTables(at: PostgresURL("postgresql://app@localhost/shop"))
    /// ```
    ///
    /// - Parameters:
    ///   - url: the server and database.
    ///   - schema: the store's schema; `nil` takes the options', then the URL's (`public` unless it
    ///     names one).
    ///   - options: the connect timeout and logger to use.
    /// - Throws: `invalidArgument` for an empty schema name, or one PostgreSQL cannot hold; the
    ///   server's errors.
    public static func dropCreatedTables(at url: PostgresURL, schema: String? = nil, options: Options = Options()) throws {
        let name = schema ?? options.schema ?? url.schema
        // PostgreSQL would cut a longer name to another schema's.
        if name.isEmpty || name.containsNUL || name.utf8.count > SQLName.maximumBytes {
            throw DataStoreError(
                .invalidArgument,
                "the schema name \(String(reflecting: name)) for PostgreSQL at \(url.location) is empty, contains a NUL "
                    + "character, or is longer than \(SQLName.maximumBytes) bytes", path: url.location)
        }
        let tables = SQLName.qualified(name, StoreSchema.tablesTable)
        let columns = SQLName.qualified(name, StoreSchema.columnsTable)
        let indexes = SQLName.qualified(name, StoreSchema.indexesTable)
        let relations = SQLName.qualified(name, StoreSchema.relationsTable)
        let operation = "Dropping the tables of the store in schema \(String(reflecting: name))"
        try withConnection(url, options) { connection in
            _ = try connection.execute("BEGIN", operation: operation)
            do {
                let lock = Int64(bitPattern: StableName.value("persist-postgres:" + name))
                _ = try connection.execute("SELECT pg_advisory_xact_lock($1)", [.int8(lock)], operation: operation)
                let exists = try connection.execute("SELECT to_regclass($1) IS NOT NULL", [.text(tables)],
                                                    operation: operation)
                if try exists.bool(0, 0) == true {
                    try dropDeclaredForeignKeys(connection, schema: name, tables: tables, relations: relations,
                                                operation: operation)
                    let created = try connection.execute("SELECT table_name FROM \(tables)", operation: operation)
                    for row in 0..<created.rowCount {
                        guard let table = try created.text(row, 0) else { continue }
                        _ = try connection.execute("DROP TABLE IF EXISTS \(SQLName.qualified(name, table))",
                                                   operation: operation)
                    }
                    _ = try connection.execute("DROP TABLE \(tables), \(columns)", operation: operation)
                    _ = try connection.execute("DROP TABLE IF EXISTS \(indexes), \(relations)", operation: operation)
                }
                let type = SQLName.qualified(name, StoreSchema.dateType)
                let used = try connection.execute("""
                    SELECT count(*) FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type t ON t.oid = a.atttypid \
                    JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace \
                    WHERE t.typname = $1 AND n.nspname = $2 AND NOT a.attisdropped AND a.attrelid <> t.typrelid
                    """, [.text(StoreSchema.dateType), .text(name)], operation: operation)
                if try used.int64(0, 0) == 0 {
                    _ = try connection.execute("DROP TYPE IF EXISTS \(type)", operation: operation)
                }
                _ = try connection.execute("COMMIT", operation: operation)
            } catch {
                _ = try? connection.execute("ROLLBACK", operation: operation)
                throw error
            }
        }
    }

    private static func withConnection(_ url: PostgresURL, _ options: Options, _ body: (PGConnection) throws -> Void) throws {
        let connection = try PGConnection.connect(to: url, options: PGConnection.Options(
            connectTimeout: options.connectTimeout, logger: options.logger))
        defer { connection.close() }
        try body(connection)
    }

    /// Drops the foreign keys of declared relations (those `persist_relations` records) that an
    /// adopted table has to a created one, which would keep the created table from being dropped.
    private static func dropDeclaredForeignKeys(_ connection: PGConnection, schema: String, tables: String,
                                                relations: String, operation: String) throws {
        let exists = try connection.execute("SELECT to_regclass($1) IS NOT NULL", [.text(relations)], operation: operation)
        guard try exists.bool(0, 0) == true else { return }
        let keys = try connection.execute("""
            SELECT r.relname::text, k.conname::text FROM pg_catalog.pg_constraint k \
            JOIN pg_catalog.pg_class r ON r.oid = k.conrelid JOIN pg_catalog.pg_class f ON f.oid = k.confrelid \
            WHERE k.contype = 'f' AND k.connamespace = (SELECT n.oid FROM pg_catalog.pg_namespace n WHERE n.nspname = $1) \
            AND f.relname IN (SELECT table_name FROM \(tables)) AND r.relname NOT IN (SELECT table_name FROM \(tables)) \
            AND k.conname IN (SELECT name FROM \(relations))
            """, [.text(schema)], operation: operation)
        for row in 0..<keys.rowCount {
            guard let table = try keys.text(row, 0), let constraint = try keys.text(row, 1) else { continue }
            _ = try connection.execute("ALTER TABLE \(SQLName.qualified(schema, table)) DROP CONSTRAINT "
                                       + SQLName.quoted(constraint), operation: operation)
        }
    }
}
