import Persist

/// The migration's fast path on PostgreSQL: rows go to the server with binary
/// `COPY … FROM STDIN (FORMAT binary)` inside the write block's one transaction, so that a kill
/// at any moment leaves the target as it was (the transaction never committed) or complete.
///
/// Rows that fit their table's columns as they are are encoded straight into the session's open
/// COPY (see ``CopyStream``), which stays open from one call to the next, so the server stores
/// rows while the next ones are read. A row that needs a new table or column, a widened column or
/// key, or that goes to an adopted (guarded) table ends the COPY and takes the general insert
/// path, which changes the schema as ``insert(_:)`` does; the rows after it are copied again.
/// Where a shape of rows goes in a table: for each column in table order, the position of its
/// value in the row, or -1 when the row has none (NULL).
struct Placement {
    let names: AttributeNames
    let table: TableSchema
    let positions: [Int]
    /// Whether every attribute of the shape has a column.
    let isComplete: Bool

    init(_ names: AttributeNames, in table: TableSchema) {
        self.names = names
        self.table = table
        var positions = [Int](repeating: -1, count: table.columns.count)
        var isComplete = true
        for (position, name) in names.names.enumerated() {
            if let index = table.columnIndex[name] { positions[index] = position } else { isComplete = false }
        }
        self.positions = positions
        self.isComplete = isComplete
    }
}

extension PostgresWriter: BulkLoadWriter {
    func bulkInsert(_ rows: ArraySlice<ItemRow>) throws {
        try checkNotFailed()
        let dateOID = schema.dateTypeOID ?? 0
        var placement: Placement?
        for row in rows {
            if var table = schema.tables[row.itemType], table.writes == .direct || isRecreated(table),
               let key = try key(of: row, in: &table) {
                if placement?.names !== row.names || placement?.table !== table { placement = self.placement(of: row, in: table) }
                let recreated = isRecreated(table)
                if let placement, try copy(row, key: key, placement, dateOID: dateOID, keepingKinds: recreated) { continue }
                if recreated {
                    try endBulkCopy()
                    if try fallBack(for: row, in: table), let widened = schema.tables[row.itemType] {
                        table = widened
                        placement = self.placement(of: row, in: table)
                        if let placement, try copy(row, key: key, placement, dateOID: dateOID, keepingKinds: true) { continue }
                    }
                }
            }
            try endBulkCopy()
            try insert(row.item)
        }
    }

    /// Where rows of `row`'s shape go in `table`, worked out once per shape and table.
    private func placement(of row: ItemRow, in table: TableSchema) -> Placement? {
        placements.plan(for: row.names, in: table, named: table.itemType) { Placement(row.names, in: table) }
    }

    /// The key parameter of `row` in `table`; when a recreated table's key cannot hold it, the key
    /// falls back first (and `table` is the widened one). `nil` when the row cannot be copied.
    private func key(of row: ItemRow, in table: inout TableSchema) throws -> PGValue? {
        // A keyless table (recreated from one) takes the rows without their identifiers.
        if table.rowKey.isKeyless { return .null }
        if let key = table.keyParameter(row.id) { return key }
        guard isRecreated(table), table.rowKey.isSingleColumn else { return nil }
        try endBulkCopy()
        guard let widened = try fallBackKey(for: row, in: table) else { return nil }
        table = widened
        return table.keyParameter(row.id)
    }

    /// Appends `row` to the COPY into its table: the key, then every column in table order;
    /// `false`, appending nothing, when a value has no column or does not fit its column as it is.
    /// Appends `row` to the COPY; `false`, appending nothing, when a column cannot keep one of its
    /// values, or (`keepingKinds`, for a recreated table, whose copy is verified) would read it back
    /// as another kind (an integer or double in a `numeric` column reads back as a decimal).
    private func copy(_ row: ItemRow, key: PGValue, _ placement: Placement, dateOID: UInt32, keepingKinds: Bool) throws -> Bool {
        guard placement.isComplete else { return false }
        let session = transaction.session
        let stream = try failingTransaction { try session.copyStream(into: placement.table) }
        let columns = placement.table.columns
        let mark = stream.encoder.mark
        do {
            if placement.table.rowKey.isSingleColumn {
                try stream.encoder.beginRow(fields: columns.count + 1)
                try stream.encoder.appendField(key)
            } else {
                guard let fields = placement.table.rowKey.fields(row.id) else { return false }
                try stream.encoder.beginRow(fields: columns.count + fields.count)
                for field in fields { try stream.encoder.appendField(field) }
            }
            for (index, position) in placement.positions.enumerated() {
                if position < 0 {
                    stream.encoder.appendNull()
                } else if keepingKinds && !columns[index].type.readsBackKind(of: row.values[position]) {
                    stream.encoder.truncate(to: mark)
                    return false
                } else if try !columns[index].type.appendCopyField(row.values[position], to: &stream.encoder,
                                                                   persistDateOID: dateOID) {
                    stream.encoder.truncate(to: mark)
                    return false
                }
            }
        } catch {
            // A value too large for a COPY field: nothing of the row stays in the COPY.
            stream.encoder.truncate(to: mark)
            throw error
        }
        try failingTransaction { try session.sendIfFull(stream) }
        return true
    }

    /// Runs a step of the COPY: when it fails, so has the transaction (the server aborted it, or
    /// the connection broke mid-COPY), and the block may not go on.
    private func failingTransaction<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DataStoreError {
            if transaction.failure == nil { transaction.failure = error }
            throw error
        }
    }

    /// Ends the open COPY, so that its rows are stored (or its error is reported) before the block
    /// does anything else; a failure ends the transaction.
    func endBulkCopy() throws {
        try failingTransaction { try transaction.session.endCopy() }
    }

    /// Builds the secondary indexes of recreated tables; nothing else is deferred (the key of a
    /// table is its primary key, checked as rows arrive).
    func finishBulkLoad() throws {
        try endBulkCopy()
        try createRecreatedIndexes()
    }

    /// The rows are in the block's transaction: a rollback undoes them.
    var rollsBackBulkInserts: Bool { true }
}

extension PostgresEngine: BulkLoadingEngine {
    func bulkWrite<T>(_ body: (any BulkLoadWriter) throws -> (value: T, commit: Bool)) throws -> T {
        try write { writer in
            guard let bulk = writer.bulkLoader else {
                throw DataStoreError(.misuse, "the PostgreSQL store at \(location) gave a writer that cannot load in bulk",
                                     path: location)
            }
            return try body(bulk)
        }
    }
}
