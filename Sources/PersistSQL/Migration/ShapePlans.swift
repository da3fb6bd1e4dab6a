import Persist

/// What a bulk load worked out for the shapes of rows (their ``AttributeNames``) going into each
/// table: how a row of that shape binds to the table's columns, so that a row is bound without
/// hashing a single name. A table's plans go when its schema object changes (a column was added).
///
/// ```swift
/// var plans = ShapePlans<TableSchema, Placement>()
/// let plan = plans.plan(for: row.names, in: table, named: table.name) { Placement(row.names, in: table) }
/// ```
package struct ShapePlans<Table: AnyObject, Plan> {
    private struct TablePlans {
        let table: Table
        /// By the shape's identity; the shape is kept so that its identity stays unique meanwhile.
        var plans: [ObjectIdentifier: (names: AttributeNames, plan: Plan?)] = [:]
    }

    private var byTable: [String: TablePlans] = [:]

    package init() {}

    /// The plan of rows of shape `names` in `table` (called `name`), made by `make` the first
    /// time; `nil` when `make` found that rows of that shape cannot skip the general path.
    package mutating func plan(for names: AttributeNames, in table: Table, named name: String,
                               make: () -> Plan?) -> Plan? {
        if let known = byTable[name], known.table === table, let entry = known.plans[ObjectIdentifier(names)] {
            return entry.plan
        }
        var tablePlans = byTable[name].flatMap { $0.table === table ? $0 : nil } ?? TablePlans(table: table)
        let plan = make()
        tablePlans.plans[ObjectIdentifier(names)] = (names, plan)
        byTable[name] = tablePlans
        return plan
    }

    /// The plans of `table` (called `name`), as the load last saw it; `nil` when it has none.
    package func table(named name: String) -> Table? {
        byTable[name]?.table
    }

    /// Forgets every plan (the load finished).
    package mutating func removeAll() {
        byTable = [:]
    }
}
