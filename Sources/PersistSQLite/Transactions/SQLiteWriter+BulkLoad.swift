import Persist
import PersistSQL

/// The bulk-load path of a write transaction: a migration's items of a type the database held
/// nothing of go into a new rowid table, appended row after row, and the table's unique key index
/// is built once, at the end, from sorted keys — instead of one random B-tree insert per item.
///
/// Rows of one shape (the same ``AttributeNames``) reuse one mapping of their names to the
/// table's columns, so that a row is bound without hashing a single name.
/// A bulk load's state in its write transaction: the tables it created, whose key index is built
/// when the load finishes, and the plans binding rows of each shape to the tables it loads.
final class SQLiteBulkLoad {
    /// Tables created by this load whose key index is still to be built.
    var deferredKeyIndexes: [String] = []
    var plans = ShapePlans<TableSchema, BulkPlan>()
}

extension SQLiteWriter: BulkLoadWriter {
    func bulkInsert(_ rows: ArraySlice<ItemRow>) throws {
        try checkTransaction()
        guard let bulkLoad else {
            for row in rows { try insert(row.item) }
            return
        }
        var next = rows.startIndex
        while next < rows.endIndex {
            next = try insertPlanned(rows, from: next, bulkLoad)
            if next < rows.endIndex {
                try insertPlanning(rows[next], bulkLoad)
                next += 1
            }
        }
    }

    /// Inserts rows from `start` on, on one statement, for as long as each is of one table the
    /// load plans and fits its shape's plan; returns the index of the first row it left.
    private func insertPlanned(_ rows: ArraySlice<ItemRow>, from start: Int, _ bulkLoad: SQLiteBulkLoad) throws -> Int {
        guard let table = bulkLoad.plans.table(named: rows[start].itemType) else { return start }
        var index = start
        try connection.withStatement(table.insertAll) { statement in
            var names: AttributeNames?
            var current: BulkPlan?
            while index < rows.endIndex {
                let row = rows[index]
                guard row.itemType == table.name else { return }
                if row.names !== names {
                    names = row.names
                    current = bulkLoad.plans.plan(for: row.names, in: table, named: table.name) {
                        BulkPlan(names: row.names, table: table)
                    }
                }
                guard let plan = current, plan.fits(row) else { return }
                try insert(row, plan, statement)
                statement.reset()
                index += 1
            }
        }
        return index
    }

    /// Inserts a row whose table or shape has no plan yet: through the general path, which creates
    /// tables and columns and checks kinds, then plans the shape for the rows that follow.
    private func insertPlanning(_ row: ItemRow, _ bulkLoad: SQLiteBulkLoad) throws {
        let known = schema.tables[row.itemType] != nil
        guard !known || bulkLoad.deferredKeyIndexes.contains(row.itemType) else {
            // A table that existed before this load keeps every check; a recreated one falls back
            // to a type that keeps a value its declared type cannot.
            guard recreation.tables[row.itemType] != nil else {
                try insert(row.item)
                return
            }
            try insertRecreated(row.item)
            // The rows after it that its declared columns keep as given skip the checks.
            if let table = schema.tables[row.itemType] { plan(row.names, in: table, bulkLoad) }
            return
        }
        let item = row.item
        let (table, values) = try resolve(item)
        let key = try keyValues(item, table)
        try naming(item) {
            try connection.withStatement(table.insertAll) { statement in
                for (offset, value) in (key + values).enumerated() { try statement.bind(value, at: Int32(offset + 1)) }
                _ = try statement.step("Inserting \(item.reference)")
            }
        }
        plan(row.names, in: table, bulkLoad)
    }

    /// Plans how rows of shape `names` bind to `table`'s insert, when they can skip the general path.
    private func plan(_ names: AttributeNames, in table: TableSchema, _ bulkLoad: SQLiteBulkLoad) {
        _ = bulkLoad.plans.plan(for: names, in: table, named: table.name) { BulkPlan(names: names, table: table) }
    }

    /// Binds a row by its shape's plan and steps the statement. Text and bytes are copied once
    /// into the arena and bound in place; everything else is bound as the general path binds it.
    private func insert(_ row: ItemRow, _ plan: BulkPlan, _ statement: SQLiteStatement) throws {
        var size = BindingArena.size(of: row.id.value)
        for value in row.values { size += BindingArena.size(of: value) }
        arena.start(row: size)
        try naming(row) {
            if plan.taggedKeys {
                try statement.bind(TaggedKeyCodec.binding(row.id), at: 1, through: arena)
            } else if plan.keyWidth == 1 {
                try statement.bind(ValueCodec.binding(row.id), at: 1, through: arena)
            } else {
                for (offset, component) in row.id.components.enumerated() {
                    try statement.bind(ValueCodec.binding(component), at: Int32(offset + 1), through: arena)
                }
            }
            for (value, parameter) in zip(row.values, plan.parameters) {
                try statement.bind(ValueCodec.typedBinding(value), at: parameter, through: arena)
            }
            for parameter in plan.nullParameters { try statement.bind(.null, at: parameter) }
            _ = try statement.step("Inserting \(row.reference)")
        }
    }

    private func naming(_ row: ItemRow, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch var error as DataStoreError where error.items.isEmpty && error.engineCode != nil {
            error.items = [row.reference]
            throw error
        }
    }

    func finishBulkLoad() throws {
        guard let bulkLoad, !bulkLoad.deferredKeyIndexes.isEmpty || !recreation.awaitingIndexes.isEmpty else {
            // Every commit comes here: with no index to build, the sorter is left as it is.
            try createRecreatedIndexes()
            return
        }
        // The indexes are built after the load, when the thread that read the source is done: one
        // helper thread of SQLite's sorter sorts on the other core. Each sorting thread fills a
        // buffer as large as the page cache, so the cache is halved meanwhile to keep the memory.
        try connection.withPragma("threads", setTo: { _ in 1 }, operation: "Setting the sorter threads") {
            try connection.withPragma("cache_size", setTo: { $0 / 2 }, operation: "Sizing the page cache") {
                while let name = bulkLoad.deferredKeyIndexes.last {
                    if let table = schema.tables[name] {
                        try editor.createKeyIndex(of: table, in: schema, path: path)
                    }
                    bulkLoad.deferredKeyIndexes.removeLast()
                }
                try createRecreatedIndexes()
            }
        }
        bulkLoad.plans.removeAll()
    }

    /// An SQLite transaction takes everything back, bulk inserts included.
    var rollsBackBulkInserts: Bool { true }
}

/// How rows of one shape bind to the insert statement of a table the load created or recreated:
/// which statement parameter each attribute binds to, and what each column takes as given.
struct BulkPlan {
    /// What a value must be to bind straight into its column.
    enum Slot {
        /// A created column: a value of its kind.
        case typed(ColumnKind)
        /// A declared (legacy) column: a value its affinity stores as given, so that the
        /// general path's read-back check would find nothing to refuse.
        case legacy(ColumnAffinity)
    }

    /// The parameter of each attribute, in the shape's order.
    let parameters: [Int32]
    /// What each attribute's column takes, in the shape's order.
    let slots: [Slot]
    /// The parameters of the columns the shape lacks, bound to NULL.
    let nullParameters: [Int32]
    /// The affinity of a declared key column that rows' identifiers must not be converted by;
    /// `nil` when any identifier is stored as given.
    let keyAffinity: ColumnAffinity?
    /// The affinities of a composite key's columns, in key order; empty for a key of one column.
    let componentAffinities: [ColumnAffinity]
    /// The number of parameters the key binds: 1, or a composite key's columns.
    let keyWidth: Int
    /// Whether the key column holds tagged keys (see ``TaggedKeyCodec``).
    let taggedKeys: Bool

    /// A plan when every attribute has a column of its own that is created or declared
    /// (not one that fell back to tagged values), and the key compares identifiers as given;
    /// `nil` otherwise.
    init?(names: AttributeNames, table: TableSchema) {
        var parameters: [Int32] = []
        var slots: [Slot] = []
        var used = Set<Int>()
        for name in names.names {
            guard let index = table.columnIndex[name] else { return nil }
            let column = table.columns[index]
            switch column.storage {
            case .typed(let kind): slots.append(.typed(kind))
            case .legacy where column.readsDecimals || column.dateForm != nil || column.holdsJSON:
                // Values are read by the column's form (decimals, ISO dates, JSON): the general path binds them.
                return nil
            case .legacy(let affinity): slots.append(.legacy(affinity))
            case .mixed: return nil
            }
            parameters.append(Int32(index + 1 + table.key.width))
            used.insert(index)
        }
        switch table.key {
        case .column(_, _, needsBinaryCollation: true): return nil
        case .column(_, let affinity, needsBinaryCollation: false): keyAffinity = affinity == .none ? nil : affinity
        case .rowid: keyAffinity = .integer
        case .composite(let columns):
            if columns.contains(where: \.needsBinaryCollation) { return nil }
            keyAffinity = nil
        }
        componentAffinities = table.key.components.map(\.affinity)
        keyWidth = table.key.width
        taggedKeys = table.taggedKeys
        self.parameters = parameters
        self.slots = slots
        nullParameters = table.columns.indices.filter { !used.contains($0) }.map { Int32($0 + 1 + table.key.width) }
    }

    /// Whether every value binds as it is (otherwise the general path decides).
    func fits(_ row: ItemRow) -> Bool {
        if keyWidth > 1 {
            guard case .composite(let components) = row.id, components.count == keyWidth else { return false }
            for (affinity, component) in zip(componentAffinities, components) {
                if component.isComposite || affinity.mayConvertOnStore(Self.storage(of: component)) { return false }
            }
        } else if row.id.isComposite && !taggedKeys {
            return false
        }
        if let keyAffinity, keyAffinity.mayConvertOnStore(Self.storage(of: row.id)) { return false }
        for (value, slot) in zip(row.values, slots) {
            switch slot {
            case .typed(let kind):
                if ColumnKind(of: value) != kind { return false }
            case .legacy(let affinity):
                guard Self.keepsAsGiven(value, affinity) else { return false }
            }
        }
        return true
    }

    private static func storage(of id: ItemID) -> StorageClass {
        switch id {
        case .int: .integer
        case .string: .text
        case .bytes, .composite: .blob
        }
    }

    /// Whether a declared column of `affinity` stores `value` exactly as given. A REAL column
    /// keeps every real but NaN (stored as NULL) and -0.0 (an integral real is kept as an
    /// integer on disk, and -0.0 comes back as 0.0); other kinds the general path decides.
    private static func keepsAsGiven(_ value: Value, _ affinity: ColumnAffinity) -> Bool {
        switch value {
        case .int: !affinity.mayConvertOnStore(.integer)
        case .double(let double):
            !double.isNaN && !(double == 0 && double.sign == .minus)
                && (affinity == .real || !affinity.mayConvertOnStore(.real))
        case .string: !affinity.mayConvertOnStore(.text)
        case .bytes: true
        case .null, .bool, .date, .array, .object, .decimal: false
        }
    }
}
