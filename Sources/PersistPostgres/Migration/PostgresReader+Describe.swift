import Persist
import PersistSQL

/// Describing adopted tables for a migration to another SQL engine, from the catalogs: columns
/// in table order with their declared types (`format_type`), NOT NULL, UNIQUE constraints of one
/// column or several, and secondary indexes on plain columns (not the key's, not a constraint's,
/// no expressions or predicates). Generated columns are left out, and so is every index and UNIQUE
/// constraint that lists one (the notes name them).
///
/// A table that a migration recreated from SQLite carries each column's SQLite declared type in
/// its column comment (see ``PostgresWriter/recreate(_:)``): when every column still has one, the
/// description is given in SQLite's words, so SQLite → PostgreSQL → SQLite gives back the same
/// declared types (`STRING` stays `STRING`), a `WITHOUT ROWID` table, whose table comment says
/// so, is one again, and the key column that holds the rowids of a table that named no key
/// (its comment says so) is left out: SQLite keys that table by its rowid again. A table keyed by
/// several columns is described with its ``TableDescription/primaryKey`` (and no key column), a
/// table without a primary key as ``TableDescription/isKeyless``.
extension PostgresReader: SQLSchemaDescribing {
    static let describing = "Describing a table"
    /// The prefix of a column comment holding the SQLite declared type it was recreated from.
    static let sqliteTypeComment = "persist: sqlite type "
    /// The end of the key column's comment when the SQLite key was not declared NOT NULL.
    static let nullableKeyComment = "; key not declared NOT NULL"
    /// The comment of a table recreated from an SQLite table declared `WITHOUT ROWID`.
    static let withoutRowidComment = "persist: sqlite WITHOUT ROWID"
    /// The comment of the key column that holds the rowids of a table recreated from an SQLite
    /// table keyed by a rowid it does not name.
    static let rowidComment = "persist: sqlite rowid"

    func describedTypes() throws -> [String] {
        schema.tables.values.filter { !$0.isCreated }.map(\.itemType).sorted { ByteOrder.precedes($0, $1) }
    }

    func columnsOutsideItems(ofTypes itemTypes: [String]?) throws -> [String] {
        let wanted = itemTypes.map(Set.init)
        var found: [String] = []
        for table in schema.tables.values.sorted(by: { ByteOrder.precedes($0.itemType, $1.itemType) })
        where wanted?.contains(table.itemType) ?? true {
            let unmapped = table.unmappedColumns
            guard !unmapped.isEmpty else { continue }
            // Which of them hold a value (bool_or is NULL over no rows; num_nonnulls, unlike IS NOT
            // NULL, counts a composite value with a NULL field), and their declared types.
            let holding = unmapped.map { "pg_catalog.bool_or(pg_catalog.num_nonnulls(\(SQLName.quoted($0))) > 0)" }
                .joined(separator: ", ")
            let results = try transaction.run([
                PGCommand("SELECT \(holding) FROM \(table.qualified)", operation: Self.describing),
                PGCommand("""
                    SELECT a.attname::text, pg_catalog.format_type(a.atttypid, a.atttypmod) FROM pg_catalog.pg_attribute a
                    WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped
                    """, [.text(table.qualified)], operation: Self.describing),
            ])
            var types: [String: String] = [:]
            for row in 0..<results[1].rowCount {
                types[try results[1].text(row, 0) ?? ""] = try results[1].text(row, 1)
            }
            for (index, column) in unmapped.enumerated() where try results[0].bool(0, index) == true {
                found.append("\(String(reflecting: table.name)).\(String(reflecting: column)) (\(types[column] ?? "unknown"))")
            }
        }
        return found
    }

    func tableDescription(ofType itemType: String) throws -> TableDescription? {
        guard let table = schema.tables[itemType], !table.isCreated else { return nil }
        let relation: [PGValue] = [.text(table.qualified)]
        let results = try transaction.run([
            PGCommand("""
                SELECT a.attname::text,
                       CASE WHEN t.typtype = 'e' THEN t.typname::text
                            WHEN et.typtype = 'e' THEN et.typname::text || '[]'
                            WHEN t.typtype = 'd' THEN pg_catalog.format_type(t.typbasetype, t.typtypmod)
                            WHEN n.nspname IN ('pg_catalog', 'information_schema')
                              OR pg_catalog.format_type(a.atttypid, a.atttypmod) LIKE '%.%'
                            THEN pg_catalog.format_type(a.atttypid, a.atttypmod)
                            ELSE pg_catalog.quote_ident(n.nspname) || '.' || pg_catalog.format_type(a.atttypid, a.atttypmod)
                       END,
                       a.attnotnull,
                       pg_catalog.col_description(a.attrelid, a.attnum),
                       EXISTS (SELECT 1 FROM pg_catalog.pg_constraint c WHERE c.conrelid = a.attrelid
                               AND c.contype = 'u' AND c.conkey = ARRAY[a.attnum])
                FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
                JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace
                LEFT JOIN pg_catalog.pg_type et ON et.oid = t.typelem AND t.typcategory = 'A'
                WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
                ORDER BY a.attnum
                """, relation, operation: Self.describing),
            PGCommand("""
                SELECT t.typname::text, (SELECT pg_catalog.string_agg(e.enumlabel::text, E'\\x1f' ORDER BY e.enumsortorder)
                                         FROM pg_catalog.pg_enum e WHERE e.enumtypid = t.oid)
                FROM pg_catalog.pg_type t
                WHERE t.typtype = 'e' AND t.oid IN (
                    SELECT CASE WHEN at.typtype = 'e' THEN at.oid ELSE at.typelem END
                    FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type at ON at.oid = a.atttypid
                    WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = '')
                """, relation, operation: Self.describing),
            PGCommand("""
                SELECT i.relname::text, ix.indisunique,
                       (SELECT pg_catalog.string_agg(a.attname::text, E'\\x1f' ORDER BY k.ord)
                        FROM unnest(ix.indkey::int2[]) WITH ORDINALITY k(attnum, ord)
                        JOIN pg_catalog.pg_attribute a ON a.attrelid = ix.indrelid AND a.attnum = k.attnum
                        WHERE k.ord <= ix.indnkeyatts)
                FROM pg_catalog.pg_index ix JOIN pg_catalog.pg_class i ON i.oid = ix.indexrelid
                WHERE ix.indrelid = $1::regclass AND NOT ix.indisprimary AND ix.indisvalid AND ix.indexprs IS NULL
                  AND ix.indpred IS NULL AND 0 <> ALL (ix.indkey::int2[])
                  AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_constraint c WHERE c.conindid = ix.indexrelid)
                  AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_attribute a WHERE a.attrelid = ix.indrelid
                                  AND a.attnum = ANY ((ix.indkey::int2[])[0:ix.indnkeyatts - 1]) AND a.attgenerated <> '')
                ORDER BY i.oid
                """, relation, operation: Self.describing),
            PGCommand("""
                SELECT (SELECT pg_catalog.string_agg(a.attname::text, E'\\x1f' ORDER BY k.ord)
                        FROM unnest(c.conkey) WITH ORDINALITY k(attnum, ord)
                        JOIN pg_catalog.pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum)
                FROM pg_catalog.pg_constraint c
                WHERE c.conrelid = $1::regclass AND c.contype = 'u' AND pg_catalog.array_length(c.conkey, 1) > 1
                  AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_attribute a WHERE a.attrelid = c.conrelid
                                  AND a.attnum = ANY (c.conkey) AND a.attgenerated <> '')
                ORDER BY c.oid
                """, relation, operation: Self.describing),
            PGCommand("SELECT pg_catalog.obj_description($1::regclass, 'pg_class')", relation, operation: Self.describing),
        ])
        var key: TableDescription.Column?
        var keyPosition = 0
        var columns: [TableDescription.Column] = []
        var sqliteTypes: [String: String] = [:]
        var keyIsRowid = false
        for row in 0..<results[0].rowCount {
            let name = try results[0].text(row, 0) ?? ""
            let column = TableDescription.Column(
                name: name, declaredType: try results[0].text(row, 1) ?? "", notNull: try results[0].bool(row, 2) ?? false,
                unique: try results[0].bool(row, 4) ?? false)
            let comment = try results[0].text(row, 3)
            if let comment, comment.hasPrefix(Self.sqliteTypeComment) {
                sqliteTypes[name] = String(comment.dropFirst(Self.sqliteTypeComment.count))
            }
            let isKey = table.rowKey.isSingleColumn && name == table.key.name
            if isKey, comment == Self.rowidComment { keyIsRowid = true }
            if isKey {
                key = column
                keyPosition = columns.count
            } else {
                columns.append(column)
            }
        }
        var indexes: [TableDescription.Index] = []
        for row in 0..<results[2].rowCount {
            let names = (try results[2].text(row, 2) ?? "").split(separator: "\u{1F}").map(String.init)
            indexes.append(.init(name: try results[2].text(row, 0) ?? "", columns: names,
                                 unique: try results[2].bool(row, 1) ?? false))
        }
        var uniqueConstraints: [[String]] = []
        for row in 0..<results[3].rowCount {
            uniqueConstraints.append((try results[3].text(row, 0) ?? "").split(separator: "\u{1F}").map(String.init))
        }
        var description = TableDescription(itemType: itemType, key: key, columns: columns, indexes: indexes,
                                           uniqueConstraints: uniqueConstraints, keyPosition: keyPosition,
                                           dialect: .postgresql,
                                           primaryKey: table.rowKey.isComposite ? table.rowKey.columns.map(\.name) : [],
                                           isKeyless: table.rowKey.isKeyless)
        for row in 0..<results[1].rowCount {
            description.enumTypes[try results[1].text(row, 0) ?? ""] = (try results[1].text(row, 1) ?? "")
                .split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
        }
        // A column that fell back holds the tagged encoding; its comment keeps the SQLite declared
        // type, which an SQLite target declares again (falling back itself if a value needs it).
        let fellBack = Set(table.columns.filter { $0.type == .mixed }.map(\.name))
        let inSQLiteWords = columns.allSatisfy { sqliteTypes[$0.name] != nil || fellBack.contains($0.name) }
        let keyType = key.flatMap { sqliteTypes[$0.name] }
        if inSQLiteWords, keyType != nil || keyIsRowid || !table.rowKey.isSingleColumn {
            if !table.rowKey.isSingleColumn {
                // A composite key's columns are among the columns; a keyless table has none.
            } else if let keyType {
                let nullable = keyType.hasSuffix(Self.nullableKeyComment)
                description.key?.declaredType = nullable ? String(keyType.dropLast(Self.nullableKeyComment.count)) : keyType
                description.key?.notNull = !nullable
            } else {
                // The key holds the rowids of a table that named none: SQLite keys it by its rowid again.
                description.key = nil
                description.keyPosition = 0
            }
            description.columns = columns.map { column in
                var copy = column
                copy.declaredType = sqliteTypes[column.name] ?? ""
                return copy
            }
            description.dialect = .sqlite
            description.withoutRowid = try results[4].text(0, 0) == Self.withoutRowidComment
        }
        return description
    }
}
