import Persist

/// What a write block knows of the tables a migration recreated in its store: their descriptions
/// in the store's words, those still awaiting their secondary indexes, and the columns whose
/// declared type gave way to a lossless fallback (see Persist's "Schema-faithful migrations").
///
/// ```swift
/// var recreation = TableRecreation()
/// recreation.created(translated)
/// let sql = "CREATE TABLE t (" + TableRecreation.definitions(of: translated, column: define).joined(separator: ", ") + ")"
/// ```
package struct TableRecreation {
    /// The recreated tables by item type, as the store declared them (with any fallbacks applied).
    package private(set) var tables: [String: TableDescription] = [:]
    /// The item types whose tables this block created, whose secondary indexes come after the load.
    package private(set) var awaitingIndexes: [String] = []
    /// The item types whose tables this block created.
    package private(set) var created: Set<String> = []
    /// The columns that fell back, in the order they first did.
    package private(set) var fallbacks: [MigrationReport.Fallback] = []

    package init() {}

    /// Records a table this block created from `description`.
    package mutating func created(_ description: TableDescription) {
        tables[description.itemType] = description
        awaitingIndexes.append(description.itemType)
        created.insert(description.itemType)
    }

    /// Records the description of a recreated table: one an earlier block of the same load
    /// recreated, so that this block knows its declared types and can fall back, or one whose
    /// column's declared type gave way.
    package mutating func remember(_ description: TableDescription) {
        tables[description.itemType] = description
    }

    /// The descriptions whose tables await their secondary indexes, which are then no longer awaited.
    package mutating func takeAwaitingIndexes() -> [TableDescription] {
        defer { awaitingIndexes = [] }
        return awaitingIndexes.compactMap { tables[$0] }
    }

    /// The declared type of `column` (the key's too) of the recreated table of `itemType`; `""` for none.
    package func declaredType(of column: String, in itemType: String) -> String {
        guard let description = tables[itemType] else { return "" }
        if let key = description.key, key.name == column { return key.declaredType }
        return description.columns.first { $0.name == column }?.declaredType ?? ""
    }

    /// Records that `column` of `itemType`, declared `declaredType`, fell back to `type` to keep the
    /// value `example` describes. A column that falls back twice (to a plain type first, then to
    /// tagged values) is reported once, in its first place, with its declared type in the source and
    /// the first value that did not fit it.
    package mutating func noteFallback(_ itemType: String, column: String, declaredType: String, to type: String,
                                       example: String) {
        if let earlier = fallbacks.firstIndex(where: { $0.itemType == itemType && $0.column == column }) {
            fallbacks[earlier].fallbackType = type
            return
        }
        fallbacks.append(MigrationReport.Fallback(itemType: itemType, column: column, declaredType: declaredType,
                                                  fallbackType: type, example: example))
    }

    /// The column and constraint definitions of a `CREATE TABLE` for `description`: each column as
    /// `column` defines it, the key's with `PRIMARY KEY` at its place, then the UNIQUE constraints
    /// of several columns.
    package static func definitions(
        of description: TableDescription, column define: (TableDescription.Column) -> String,
        key defineKey: (TableDescription.Column) -> String
    ) -> [String] {
        var definitions = description.columns.map(define)
        if let key = description.key {
            definitions.insert(defineKey(key), at: min(description.keyPosition, definitions.count))
        }
        for constraint in description.uniqueConstraints {
            definitions.append("UNIQUE (\(constraint.map(SQLName.quoted).joined(separator: ", ")))")
        }
        return definitions
    }
}
