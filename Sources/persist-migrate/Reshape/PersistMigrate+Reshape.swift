import Persist

extension PersistMigrate {
    /// Each reshape rule with the items it applied to, as the library counted them.
    func reshapeReport(report: MigrationReport?) -> [MigrationSummary.RuleLine] {
        report?.reshape.map { MigrationSummary.RuleLine(rule: $0.rule.description, items: $0.items) } ?? []
    }

    /// Warnings about reshape options that did nothing: rules that matched no item, and
    /// `--raw-value` with no raw store.
    func reshapeNotes(_ rules: [MigrationSummary.RuleLine], plans: (source: StorePlan, target: StorePlan)?) -> [String] {
        var notes = rules.filter { $0.items == 0 }.map { "\($0.rule) matched no item of the source" }
        if let plans, reshape.rawValueUnused(source: plans.source, target: plans.target) {
            notes.append("--raw-value \(reshape.rawValue.rawValue) has no effect: neither store is a GDBM file in the raw layout")
        }
        return notes
    }
}
