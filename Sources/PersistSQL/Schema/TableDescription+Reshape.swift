import Persist

/// What the rules of a reshape make of the schema of an adopted SQL table, so that a migration
/// recreates the table the reshaped items belong in (see <doc:SchemaFaithfulMigrations>).
extension TableDescription {
    /// The table `description` becomes under the rules that name its type.
    ///
    /// The table takes the type's new name; a renamed column keeps its declared type, `NOT NULL`
    /// and `UNIQUE` under its new name, in every index and UNIQUE constraint that lists it too; a
    /// dropped column is left out with every index and UNIQUE constraint that lists it (never
    /// narrowed to the columns left, which would refuse rows the source held). The key column holds
    /// the items' identifiers, which attribute rules do not reach (such a rule matches no item): a
    /// rule that renames or drops it, or gives a column its name, leaves the table to be made from
    /// the items; so does a rename that gives a column the name of another (compared as SQLite
    /// compares names, without ASCII case).
    ///
    /// ```swift
    /// let reshape = MigrationReshape([.renameAttribute("titel", ofType: "Note", to: "title")])
    /// if case .schema(let note, _) = description.reshaped(by: reshape) { print(note.itemType) }
    /// ```
    package func reshaped(by reshape: MigrationReshape) -> ReshapedSchema {
        let description = self
        let table = String(reflecting: description.itemType)
        let rulesOfType = reshape.rules.filter { $0.sourceType == description.itemType }
        guard !rulesOfType.isEmpty else { return .schema(description, notes: []) }
        func itemsOnly(_ why: String) -> ReshapedSchema {
            .itemsOnly("the table \(table) is made from its items, not recreated from the source's schema: \(why)")
        }
        if let key = description.key {
            let keyName = String(reflecting: key.name)
            for rule in rulesOfType {
                switch rule {
                case .renameAttribute(let name, _, _) where name == key.name, .dropAttribute(let name, _) where name == key.name:
                    return itemsOnly("\(rule) names its key column \(keyName), which holds the items' identifiers and is no "
                                         + "attribute, so the rule matches no item")
                case .renameAttribute(_, _, let new) where SQLName.folded(new) == SQLName.folded(key.name):
                    return itemsOnly("\(rule) gives a column the name of its key column \(keyName)")
                default:
                    continue
                }
            }
        }
        let plan = reshape.plan(for: description.itemType, names: description.columns.map(\.name))
        if let collision = plan.collision {
            return itemsOnly("\(collision.rule) gives two of its columns the name \(String(reflecting: collision.name))")
        }
        var reshaped = description
        reshaped.itemType = plan.itemType
        reshaped.columns = []
        reshaped.keyPosition = 0
        var dropped: Set<String> = []
        for (position, column) in description.columns.enumerated() {
            guard let newName = plan.newNames[column.name] else {
                dropped.insert(column.name)
                continue
            }
            var renamed = column
            renamed.name = newName
            reshaped.columns.append(renamed)
            if position < description.keyPosition { reshaped.keyPosition += 1 }
        }
        // Names the rules gave that SQLite takes for another column's (a source that had two such
        // columns already is recreated as it is, without a reshape too).
        let given = Set(plan.newNames.filter { $0.key != $0.value }.values)
        var seen: [String: String] = [:]
        for name in (description.key.map { [$0.name] } ?? []) + reshaped.columns.map(\.name) {
            if let other = seen.updateValue(name, forKey: SQLName.folded(name)), given.contains(name) || given.contains(other) {
                let rule = rulesOfType.first { rule in
                    if case .renameAttribute(_, _, let new) = rule { return new == name || new == other }
                    return false
                }
                return itemsOnly("\(rule.map { "\($0)" } ?? "a rename") gives it the columns \(String(reflecting: other)) "
                                     + "and \(String(reflecting: name)), one name to SQLite, which compares names without case")
            }
        }
        var notes: [String] = []
        /// The names of `columns` after the rules; `nil` when one of them is dropped.
        func renamed(_ columns: [String], _ what: String) -> [String]? {
            if let gone = columns.first(where: dropped.contains) {
                notes.append("\(what) of \(table) is left out: it lists the dropped column \(String(reflecting: gone))")
                return nil
            }
            return columns.map { plan.newNames[$0] ?? $0 }
        }
        reshaped.indexes = description.indexes.compactMap { index in
            renamed(index.columns, "the index \(String(reflecting: index.name))").map { columns in
                var copy = index
                copy.columns = columns
                return copy
            }
        }
        reshaped.uniqueConstraints = description.uniqueConstraints.compactMap { columns in
            renamed(columns, "the constraint UNIQUE (\(columns.map { String(reflecting: $0) }.joined(separator: ", ")))")
        }
        return .schema(reshaped, notes: notes)
    }
}
