import Persist

/// Typed reads decode entities straight from result columns, with no item in between.
extension PostgresReader: EntityRowReading {
    func forEachEntityRow(matching request: DataStoreRequest, _ body: (any EntityRowSource) throws -> Bool) throws {
        let source = PostgresRowSource()
        let itemSource = ItemRowSource()
        try forEachRow(matching: request, items: { item in
            itemSource.current = item
            return try body(itemSource)
        }, rows: { decoder, row in
            try source.move(to: decoder, row)
            return try body(source)
        })
    }

    func withEntityRow<T>(ofType itemType: String, id: ItemID, _ body: (any EntityRowSource) throws -> T) throws -> T? {
        try withRow(ofType: itemType, id: id) { decoder, row in
            let source = PostgresRowSource()
            try source.move(to: decoder, row)
            return try body(source)
        }
    }
}

/// One row of a result of `SELECT *` on a table, as an entity's source.
final class PostgresRowSource: EntityRowSource {
    private var decoder: RowDecoder?
    private var row = 0
    private var id: ItemID = .int(0)
    private var layout: PostgresEntityLayout?
    /// The table ``layout`` is of.
    private var layoutTable: TableSchema?

    /// Takes row `row` of `decoder`'s result: reads its key first, as ``RowDecoder/item(_:)`` does.
    func move(to decoder: RowDecoder, _ row: Int) throws {
        self.decoder = decoder
        self.row = row
        id = try decoder.identifier(row)
    }

    private func current() throws -> RowDecoder {
        guard let decoder else { throw DataStoreError(.misuse, "an entity row source was read before it had a row") }
        return decoder
    }

    private func layout(for plan: EntityPlan, _ table: TableSchema) -> PostgresEntityLayout {
        if let layout, layout.plan === plan, layoutTable === table { return layout }
        let found = table.entityLayouts.layout(for: plan) { PostgresEntityLayout(plan: plan, table: table) }
        (layout, layoutTable) = (found, table)
        return found
    }

    func identifier() throws -> ItemID { id }

    func columns(for plan: EntityPlan) -> any EntityRowColumns {
        SlotLookupColumns { [self] slot in
            let decoder = try current()
            let offset = layout(for: plan, decoder.table).columnOfSlot[slot]
            return offset < 0 ? .null : try decoder.value(row, column: offset, id: id) ?? .null
        }
    }

    func fill(_ values: UnsafeMutableBufferPointer<Value>, for plan: EntityPlan) throws -> Bool {
        let decoder = try current()
        let layout = layout(for: plan, decoder.table)
        for slot in plan.attributeSlots {
            let offset = layout.columnOfSlot[slot]
            values[slot] = offset < 0 ? .null : try decoder.value(row, column: offset, id: id) ?? .null
        }
        return layout.columnsWithoutSlot.contains { !decoder.isNull(row, column: $0) }
    }

    func value(named name: String) throws -> Value? {
        let decoder = try current()
        guard let offset = decoder.table.columnIndex[name] else { return nil }
        return try decoder.value(row, column: offset, id: id)
    }

    func item() throws -> Item { try current().item(row) }

    func checkUnread(_ read: UInt64, for plan: EntityPlan) throws {
        let decoder = try current()
        let layout = layout(for: plan, decoder.table)
        if read == plan.attributeMask && layout.columnsWithoutSlot.isEmpty { return }
        for slot in plan.attributeSlots where slot >= 64 || read & 1 << UInt64(slot) == 0 {
            let offset = layout.columnOfSlot[slot]
            if offset >= 0 { _ = try decoder.value(row, column: offset, id: id) }
        }
        for offset in layout.columnsWithoutSlot { _ = try decoder.value(row, column: offset, id: id) }
    }
}
