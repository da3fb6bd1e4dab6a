/// The layouts of the entity plans used with one table (how a plan's slots map onto the table's
/// columns), which a wrapper keeps with the table in its cached schema: a schema read again has
/// new tables, so a layout never outlives the columns it describes. Keeps the last eight plans.
///
/// ```swift
/// let layout = table.entityLayouts.layout(for: plan) { ColumnLayout(plan: plan, table: table) }
/// ```
package final class EntityLayoutCache<Layout: Sendable>: Sendable {
    private let layouts = Locked<[(plan: EntityPlan, layout: Layout)]>([])
    private static var capacity: Int { 8 }

    package init() {}

    /// The layout of `plan`, made by `make` on first use.
    package func layout(for plan: EntityPlan, making make: () -> Layout) -> Layout {
        if let found = layouts.withLock({ $0.last { $0.plan === plan } }) { return found.layout }
        let layout = make()
        layouts.withLock { layouts in
            layouts.append((plan, layout))
            if layouts.count > Self.capacity { layouts.removeFirst() }
        }
        return layout
    }
}
