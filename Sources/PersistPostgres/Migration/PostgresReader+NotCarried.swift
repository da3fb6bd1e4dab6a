import Persist

/// What an adopted table holds beyond what a migration recreates (see the "Schema-faithful
/// migrations" article of Persist), from the catalogs, so that a migration can say so rather than
/// drop it silently.
extension PostgresReader {
    /// One row per thing left behind: its order, and its words for a note.
    private static let notCarriedQuery = """
        SELECT 1, a.attnum::int, 'the DEFAULT of ' || pg_catalog.quote_ident(a.attname)
        FROM pg_catalog.pg_attribute a WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped
          AND a.atthasdef AND a.attgenerated = ''
        UNION ALL
        SELECT 2, a.attnum::int, 'the identity of ' || pg_catalog.quote_ident(a.attname)
        FROM pg_catalog.pg_attribute a WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped
          AND a.attidentity <> ''
        UNION ALL
        SELECT 3, a.attnum::int, 'the generated ' || pg_catalog.quote_ident(a.attname)
        FROM pg_catalog.pg_attribute a WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped
          AND a.attgenerated <> ''
        UNION ALL
        SELECT 4, a.attnum::int, 'the collation of ' || pg_catalog.quote_ident(a.attname)
        FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
        WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped AND a.attcollation <> t.typcollation
        UNION ALL
        SELECT 4, a.attnum::int, 'the domain constraints of ' || pg_catalog.quote_ident(a.attname)
        FROM pg_catalog.pg_attribute a WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped
          AND EXISTS (SELECT 1 FROM pg_catalog.pg_constraint c WHERE c.contypid = a.atttypid)
        UNION ALL
        SELECT 5, 0, 'the constraint ' || pg_catalog.quote_ident(c.conname) || ' ' || pg_catalog.pg_get_constraintdef(c.oid)
        FROM pg_catalog.pg_constraint c WHERE c.conrelid = $1::regclass
          AND (c.contype IN ('c', 'x') OR c.contype = 'f' AND NOT (c.conname = ANY ($2::text[])) OR c.contype = 'u' AND EXISTS (
            SELECT 1 FROM pg_catalog.pg_attribute a WHERE a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
            AND a.attgenerated <> ''))
        UNION ALL
        SELECT 5, 0, 'DEFERRABLE in the constraint ' || pg_catalog.quote_ident(c.conname)
        FROM pg_catalog.pg_constraint c WHERE c.conrelid = $1::regclass AND c.contype IN ('p', 'u') AND c.condeferrable
          AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_attribute a WHERE a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
                          AND a.attgenerated <> '')
        UNION ALL
        SELECT 6, 0, CASE WHEN i.indpred IS NOT NULL THEN 'the partial index '
                          WHEN i.indexprs IS NOT NULL THEN 'the index on expressions '
                          WHEN g.generated THEN 'the index on generated columns '
                          ELSE 'DESC in the index ' END || pg_catalog.quote_ident(x.relname)
        FROM pg_catalog.pg_index i JOIN pg_catalog.pg_class x ON x.oid = i.indexrelid,
          LATERAL (SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_attribute a WHERE a.attrelid = i.indrelid
                                  AND a.attnum = ANY ((i.indkey::int2[])[0:i.indnkeyatts - 1])
                                  AND a.attgenerated <> '') AS generated) g
        WHERE i.indrelid = $1::regclass
          AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_constraint c WHERE c.conindid = i.indexrelid AND c.conrelid = i.indrelid)
          AND (i.indpred IS NOT NULL OR i.indexprs IS NOT NULL OR g.generated
               OR EXISTS (SELECT 1 FROM pg_catalog.unnest(i.indoption) o WHERE o::int & 1 = 1))
        UNION ALL
        SELECT 6, 0, w.what || pg_catalog.quote_ident(x.relname)
        FROM pg_catalog.pg_index i JOIN pg_catalog.pg_class x ON x.oid = i.indexrelid
          JOIN pg_catalog.pg_am m ON m.oid = x.relam,
          LATERAL (VALUES
            (m.amname <> 'btree', 'the method ' || m.amname || ' of the index '),
            (EXISTS (SELECT 1 FROM pg_catalog.unnest(i.indoption) o WHERE o::int = 2), 'NULLS FIRST in the index '),
            (i.indnatts > i.indnkeyatts, 'the INCLUDE columns of the index '),
            (coalesce((pg_catalog.to_jsonb(i) ->> 'indnullsnotdistinct')::boolean, false), 'NULLS NOT DISTINCT in the index '),
            (EXISTS (SELECT 1 FROM ROWS FROM (pg_catalog.unnest(i.indkey::int2[]), pg_catalog.unnest(i.indcollation::oid[])) WITH ORDINALITY k(attnum, coll, n)
                     JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
                     WHERE k.n <= i.indnkeyatts AND k.coll <> 0 AND k.coll <> a.attcollation), 'the collation of the index '),
            (m.amname = 'btree' AND EXISTS (
               SELECT 1 FROM pg_catalog.unnest(i.indclass::oid[]) WITH ORDINALITY k(opclass, n)
               JOIN pg_catalog.pg_opclass c ON c.oid = k.opclass WHERE k.n <= i.indnkeyatts AND NOT c.opcdefault),
             'the operator class of the index ')) w(lost, what)
        WHERE i.indrelid = $1::regclass AND w.lost AND i.indisvalid AND i.indpred IS NULL AND i.indexprs IS NULL
          AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_attribute a WHERE a.attrelid = i.indrelid
                          AND a.attnum = ANY ((i.indkey::int2[])[0:i.indnkeyatts - 1]) AND a.attgenerated <> '')
          AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_constraint c WHERE c.conindid = i.indexrelid AND c.conrelid = i.indrelid
                          AND c.contype = 'x')
        UNION ALL
        SELECT 7, 0, 'the trigger ' || pg_catalog.quote_ident(t.tgname)
        FROM pg_catalog.pg_trigger t WHERE t.tgrelid = $1::regclass AND NOT t.tgisinternal
        ORDER BY 1, 2, 3
        """

    /// What a migration leaves behind of the table of `itemType`. Its foreign keys that are
    /// relations (to the primary key of an item type) are carried as relations, so they are not
    /// listed; one to other columns or to a table that is not an item type is.
    func schemaNotCarried(ofType itemType: String) throws -> [String] {
        guard let table = schema.tables[itemType], !table.isCreated else { return [] }
        let relations = schema.relations.compactMap { stored in
            stored.relation.itemType == itemType ? stored.foreignKey?.name : nil
        }
        let names = PGArrayEncoder.array(of: relations.map(PGValue.text), elementType: PGType.text)
        let result = try transaction.run([
            PGCommand(Self.notCarriedQuery, [.text(table.qualified), names], operation: Self.describing),
        ])[0]
        return try (0..<result.rowCount).compactMap { try result.text($0, 2) }
    }
}
