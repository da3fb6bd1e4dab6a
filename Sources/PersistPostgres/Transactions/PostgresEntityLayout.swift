import Persist

/// Where the slots of one ``EntityPlan`` are in one table: the column of each slot, and the slot
/// of each column.
final class PostgresEntityLayout: Sendable {
    let plan: EntityPlan
    /// The offset in ``TableSchema/columns`` of each slot's attribute; -1 for the identifier's
    /// slot and attributes without a column.
    let columnOfSlot: [Int]
    /// The slot of each column's attribute; -1 for columns the plan has no slot for.
    let slotOfColumn: [Int]
    /// Attribute slots without a column: a row with a value there takes the general path.
    let slotsWithoutColumn: [Int]
    /// Columns the plan has no slot for: a stored row with a value there has attributes the plan lacks.
    let columnsWithoutSlot: [Int]

    init(plan: EntityPlan, table: TableSchema) {
        self.plan = plan
        var columnOfSlot = [Int](repeating: -1, count: plan.names.count)
        var slotOfColumn = [Int](repeating: -1, count: table.columns.count)
        var slotsWithoutColumn: [Int] = []
        for slot in plan.attributeSlots {
            if let offset = table.columnIndex[plan.names[slot]] {
                columnOfSlot[slot] = offset
                slotOfColumn[offset] = slot
            } else {
                slotsWithoutColumn.append(slot)
            }
        }
        self.columnOfSlot = columnOfSlot
        self.slotOfColumn = slotOfColumn
        self.slotsWithoutColumn = slotsWithoutColumn
        columnsWithoutSlot = slotOfColumn.indices.filter { slotOfColumn[$0] < 0 }
    }
}
