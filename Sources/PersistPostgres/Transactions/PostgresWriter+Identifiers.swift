import Persist

extension PostgresWriter {
    /// Whether the type's last identifier came from its key's sequence: then every identifier of
    /// the block does, since a legacy `INSERT` committed meanwhile takes the sequence's next value
    /// without waiting for the block.
    func takesEachIntegerIDFromSequence(ofType itemType: String) -> Bool {
        sequencedKeys.contains(itemType)
    }

    /// Refuses an identifier above the range of an integer key column (one counted up from the
    /// block's last, or above one this store handed out before), as ``nextIntegerID(ofType:)``
    /// refuses one above the largest key.
    func checkGeneratedIntegerID(_ id: Int64, ofType itemType: String) throws {
        guard let table = schema.tables[itemType], table.rowKey.isSingleColumn, let range = table.key.type.integerRange,
              id > range.upperBound else {
            return
        }
        throw columnExhausted(table, upTo: range.upperBound)
    }
}

extension PostgresWriter {
    /// The next integer identifier of a type whose key is an integer column.
    ///
    /// - An adopted key with a sequence (see ``keySequence``) that counts up takes the identifier
    ///   from that sequence with `nextval`, so legacy `INSERT`s that let the column default and
    ///   Persist never hand out the same identifier; each identifier of a block does (see
    ///   ``takesEachIntegerIDFromSequence(ofType:)``). A sequence behind the table's largest key
    ///   (rows inserted with explicit keys, or ones the block wrote) is first moved up to it with `setval`.
    /// - A sequence that counts down, or whose `MAXVALUE` leaves no value above its last one or
    ///   the table's largest key, is not asked (`nextval` would fail and abort the transaction, or
    ///   give a value below a key): the identifier is one above `max(key)`, as for a key without
    ///   one. Legacy inserts taking such a sequence never reach it.
    /// - Any other integer key gives one above `max(key)`. This is safe against other Persist
    ///   processes: every Persist write block on the schema holds the schema's transaction-level
    ///   advisory lock from its first statement to its commit, so no other Persist writer can
    ///   insert between this `SELECT` and the block's commit.
    /// - A key of another type (text, the mixed encoding) takes the general path: one above the
    ///   largest integer identifier found among the items.
    func nextIntegerID(ofType itemType: String) throws -> Int64 {
        try checkTransaction()
        guard let table = schema.tables[itemType], table.rowKey.isSingleColumn,
              [.smallint, .integer, .bigint].contains(table.key.type) else {
            return try IntegerIDs.after(largestIntegerID(ofType: itemType), itemType: itemType)
        }
        let operation = "Choosing the next integer identifier of type \(String(reflecting: itemType))"
        let key = table.key.quoted
        let results = try transaction.run([
            PGCommand("SELECT max(\(key))::int8 FROM \(table.qualified)", prepared: true, operation: operation),
            PGCommand("""
                SELECT s.seq::text, q.seqincrement, q.seqmax, CASE
                    WHEN pg_catalog.has_sequence_privilege(s.seq, 'SELECT, USAGE')
                    THEN pg_catalog.pg_sequence_last_value(s.seq) END
                FROM (SELECT (\(Self.keySequence)) AS seq) s JOIN pg_catalog.pg_sequence q ON q.seqrelid = s.seq
                """, [.text(table.qualified), .text(table.key.name)], prepared: true, operation: operation),
        ])
        let largest = try results[0].int64(0, 0)
        let found = results[1]
        sequencedKeys.remove(itemType)
        guard !table.isCreated, found.rowCount > 0, let sequence = try found.text(0, 0),
              let increment = try found.int64(0, 1), increment > 0, let maximum = try found.int64(0, 2),
              try found.int64(0, 3).map({ Self.fits($0, plus: increment, within: maximum) }) ?? true else {
            return try oneAbove(largest, in: table)
        }
        sequencedKeys.insert(itemType)
        let next = try transaction.run([
            PGCommand("SELECT pg_catalog.nextval($1::regclass)", [.text(sequence)], prepared: true, operation: operation),
        ])[0]
        guard let value = try next.int64(0, 0) else { return try oneAbove(largest, in: table) }
        guard let largest, value <= largest else { return value }
        guard Self.fits(largest, plus: increment, within: maximum) else { return try oneAbove(largest, in: table) }
        let moved = try transaction.run([
            PGCommand("SELECT pg_catalog.setval($1::regclass, $2), pg_catalog.nextval($1::regclass)",
                      [.text(sequence), .int8(largest)], prepared: true, operation: operation),
        ])[0]
        return try moved.int64(0, 1) ?? oneAbove(largest, in: table)
    }

    /// Whether `value + increment` is at most `maximum` (without overflowing).
    private static func fits(_ value: Int64, plus increment: Int64, within maximum: Int64) -> Bool {
        let (sum, overflow) = value.addingReportingOverflow(increment)
        return !overflow && sum <= maximum
    }

    /// One above `largest` (1 for none), when the key column can hold it.
    ///
    /// - Throws: ``DataStoreError/Code/unsupported`` when it cannot.
    private func oneAbove(_ largest: Int64?, in table: TableSchema) throws -> Int64 {
        let next = try IntegerIDs.after(largest, itemType: table.itemType)
        if let range = table.key.type.integerRange, next > range.upperBound {
            throw columnExhausted(table, upTo: range.upperBound)
        }
        return next
    }

    /// The error for an integer key column that has no identifier left above those taken.
    private func columnExhausted(_ table: TableSchema, upTo upperBound: Int64) -> DataStoreError {
        DataStoreError(
            .unsupported,
            "the key column \(String(reflecting: table.key.name)) of table \(table.qualified) holds integers up to "
                + "\(upperBound), which the item type \(String(reflecting: table.itemType)) has reached (a row holds it, or "
                + "this store handed it out before), so it has no next integer identifier; give new items identifiers of "
                + "your own, or widen the column",
            path: location)
    }

    /// The sequence of the key column `$2` of the table `$1` (qualified), as a `regclass`, or NULL:
    /// the sequence the column owns (`serial`, `GENERATED … AS IDENTITY`), or else the one its
    /// `DEFAULT` is exactly `nextval` of (a sequence the table does not own, which other tables may
    /// share). The default is found by its dependency on the sequence in `pg_depend`, and must be
    /// the call alone: a default computed from a sequence (`nextval('s') * 10`) gives no sequence.
    static let keySequence = """
        coalesce(pg_catalog.pg_get_serial_sequence($1, $2)::regclass, (
            SELECT d.refobjid::regclass FROM pg_catalog.pg_attribute a
            JOIN pg_catalog.pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
            JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_attrdef'::regclass AND d.objid = ad.oid
                AND d.refclassid = 'pg_catalog.pg_class'::regclass
            JOIN pg_catalog.pg_class s ON s.oid = d.refobjid AND s.relkind = 'S'
            WHERE a.attrelid = $1::regclass AND a.attname = $2
              AND pg_catalog.pg_get_expr(ad.adbin, ad.adrelid)
                  = pg_catalog.format('nextval(%L::regclass)', d.refobjid::regclass)
            LIMIT 1))
        """

    /// Moves the sequence of each adopted integer key this block wrote identifiers to (see
    /// ``keySequence``) up to the table's largest key, before the block commits, so that
    /// a legacy `INSERT` that lets the key default never takes an identifier Persist wrote: one
    /// given by the item (generated ones come from the sequence already). A sequence whose next value is already past the key, one that
    /// counts down or cannot hold the key, and one the role may not update, is left alone.
    func advanceSequences() throws {
        let commands = keyedByInteger.sorted().compactMap { itemType -> PGCommand? in
            guard let table = schema.tables[itemType], !table.isCreated else { return nil }
            return PGCommand("""
                SELECT pg_catalog.setval(s.seq, s.top) FROM (
                    SELECT (\(Self.keySequence)) AS seq,
                           (SELECT max(\(table.key.quoted)) FROM \(table.qualified))::int8 AS top) s
                JOIN pg_catalog.pg_sequence q ON q.seqrelid = s.seq
                WHERE s.top IS NOT NULL AND s.top BETWEEN q.seqmin AND q.seqmax AND q.seqincrement > 0
                  AND CASE WHEN pg_catalog.pg_sequence_last_value(s.seq) IS NULL THEN s.top >= q.seqstart
                           ELSE s.top > pg_catalog.pg_sequence_last_value(s.seq) END
                  AND pg_catalog.has_sequence_privilege(s.seq, 'UPDATE')
                """, [.text(table.qualified), .text(table.key.name)], prepared: true,
                     operation: "Moving the key sequence of type \(String(reflecting: itemType)) past its identifiers")
        }
        keyedByInteger.removeAll()
        guard !commands.isEmpty else { return }
        _ = try transaction.run(commands)
    }
}
