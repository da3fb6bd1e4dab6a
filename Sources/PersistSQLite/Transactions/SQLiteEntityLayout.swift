import Persist

/// How one entity plan maps onto the columns of one table: which column each slot is, and whether
/// rows of the plan may be bound straight to the table's cached statements.
final class SQLiteEntityLayout: Sendable {
    let plan: EntityPlan
    /// For each slot of the plan: the index of its column in the table's columns, or -1 (no such
    /// column, or the identifier's slot).
    let columnOfSlot: [Int]
    /// For each column: the slot of its attribute, or -1.
    let slotOfColumn: [Int]
    /// What each column holds, in column order.
    let storages: [ColumnSchema.Storage]
    /// For each slot: the kind of its column when the store created it for one kind, else `nil`.
    let typedKindOfSlot: [ColumnKind?]
    /// Attribute slots with no column: a value there needs a new column, which the general path makes.
    let slotsWithoutColumn: [Int]
    /// Columns no slot maps to: bound NULL when writing (the entity replaces the whole item), and
    /// attributes outside the plan when reading.
    let columnsWithoutSlot: [Int]
    /// Whether rows may be bound straight: no column DEFAULT to leave in effect and nothing SQLite
    /// could store differently than given (affinity or collation of legacy columns or key).
    let acceptsRows: Bool
    /// The result column of the first attribute column: the key's width.
    let firstColumn: Int32

    init(plan: EntityPlan, table: TableSchema) {
        self.plan = plan
        var columnOfSlot = Array(repeating: -1, count: plan.names.count)
        var slotOfColumn = Array(repeating: -1, count: table.columns.count)
        for slot in plan.attributeSlots {
            if let column = table.columnIndex[plan.names[slot]] {
                columnOfSlot[slot] = column
                slotOfColumn[column] = slot
            }
        }
        self.columnOfSlot = columnOfSlot
        self.slotOfColumn = slotOfColumn
        storages = table.columns.map(\.storage)
        typedKindOfSlot = columnOfSlot.map { column in
            guard column >= 0, case .typed(let kind) = table.columns[column].storage else { return nil }
            return kind
        }
        slotsWithoutColumn = plan.attributeSlots.filter { columnOfSlot[$0] < 0 }
        columnsWithoutSlot = slotOfColumn.indices.filter { slotOfColumn[$0] < 0 }
        // A column holding JSON text binds through the general path, which writes that text.
        acceptsRows = !table.hasDefaults && table.writes == .direct && !table.columns.contains(where: \.holdsJSON)
        firstColumn = Int32(table.key.width)
    }

    /// Binds the row's values in column order to the parameters from `first` on, their text and
    /// bytes in place from `arena`.
    ///
    /// - Returns: `false` when some value needs the general path: a value for a column the table
    ///   lacks, or of a kind its column does not hold (which widens the column or fails).
    func bind(_ row: EntityRow, to statement: SQLiteStatement, from first: Int32, through arena: BindingArena) throws -> Bool {
        for slot in slotsWithoutColumn where !row.values[slot].isNull { return false }
        var size = 0
        for value in row.values { size += BindingArena.size(of: value) }
        arena.start(row: size)
        for column in slotOfColumn.indices {
            let slot = slotOfColumn[column]
            let value = slot >= 0 ? row.values[slot] : .null
            let binding: SQLBinding
            switch storages[column] {
            case .typed(let kind):
                if !value.isNull, ColumnKind(of: value) != kind { return false }
                binding = ValueCodec.typedBinding(value)
            case .mixed:
                binding = MixedCodec.binding(value)
            case .legacy:
                guard let legacy = ValueCodec.legacyBinding(value) else { return false }
                binding = legacy
            }
            try statement.bind(binding, at: first + Int32(column), through: arena)
        }
        return true
    }

    /// Reads one attribute slot of the row the statement is at (the key is result column 0, or
    /// the first ``firstColumn`` ones, column `i` result column `i + firstColumn`).
    @inline(__always)
    func value(
        atSlot slot: Int, from statement: SQLiteStatement, decoder: RowDecoder, id: @autoclosure () -> ItemID
    ) throws -> Value {
        let column = columnOfSlot[slot]
        guard column >= 0, let found = statement.column(Int32(column) + firstColumn) else { return .null }
        return try decoder.value(found, storages[column], column, id())
    }

    /// The column of attribute `slot` in the row the statement is at, when the store created it
    /// for values of `kind` and SQLite holds this one as `storage`: the cases in which
    /// ``RowDecoder/value(_:_:_:_:)`` reads the column as it is, with no conversion.
    @inline(__always)
    func column(atSlot slot: Int, of kind: ColumnKind, storedAs storage: StorageClass, in statement: SQLiteStatement) -> SQLiteColumn? {
        guard typedKindOfSlot[slot] == kind, let found = statement.column(Int32(columnOfSlot[slot]) + firstColumn),
            found.storage == storage
        else { return nil }
        return found
    }

    /// Reads the values of the row the statement is at that a typed decode did not read (see
    /// ``EntityRowSource/checkUnread(_:for:)``), as ``RowDecoder/item(_:)`` reads them.
    func checkUnread(_ read: UInt64, in statement: SQLiteStatement, decoder: RowDecoder, id: ItemID) throws {
        if read == plan.attributeMask && columnsWithoutSlot.isEmpty { return }
        for slot in plan.attributeSlots where slot >= 64 || read & 1 << UInt64(slot) == 0 {
            _ = try value(atSlot: slot, from: statement, decoder: decoder, id: id)
        }
        for column in columnsWithoutSlot {
            guard let found = statement.column(Int32(column) + firstColumn) else { continue }
            _ = try decoder.value(found, storages[column], column, id)
        }
    }

    /// Reads every attribute slot of the row the statement is at.
    ///
    /// - Returns: whether the row has values in columns outside the plan.
    func fill(
        _ values: UnsafeMutableBufferPointer<Value>, from statement: SQLiteStatement, decoder: RowDecoder, id: ItemID
    ) throws -> Bool {
        for slot in plan.attributeSlots {
            values[slot] = try value(atSlot: slot, from: statement, decoder: decoder, id: id)
        }
        for column in columnsWithoutSlot where statement.storageClass(Int32(column) + firstColumn) != nil { return true }
        return false
    }
}
