import Foundation
import Persist
import PersistSQL

/// One relation of a store's schema: declared through Persist (recorded in `persist_relations`)
/// or adopted from a foreign key, with the foreign key that carries it out when there is one.
struct StoredRelation: Sendable {
    let relation: DataStoreRelation
    /// Whether Persist declared it (`persist_relations`); otherwise it is an adopted foreign key.
    let isDeclared: Bool
    /// The foreign key that enforces it in PostgreSQL; `nil` when Persist enforces it.
    var foreignKey: ForeignKey?

    /// Whether PostgreSQL enforces it (and carries out its delete rule).
    var isForeignKey: Bool { foreignKey != nil }

    /// The declarations recorded in the table `table` (`persist_relations`), oldest first.
    static func declarationsQuery(_ table: String) -> String {
        "SELECT name, item_type, attributes, related_type, on_delete FROM \(table) ORDER BY position"
    }

    /// The declarations in the rows of ``declarationsQuery(_:)``.
    static func declarations(_ result: PGResult, table: String) throws -> [DataStoreRelation] {
        try (0..<result.rowCount).map { row in
            let encoded = try result.text(row, 2) ?? "[]"
            let ruleName = try result.text(row, 4) ?? ""
            guard let attributes = try? JSONDecoder().decode([String].self, from: Data(encoded.utf8)),
                  let rule = Self.rule(named: ruleName) else {
                throw DataStoreError(.corrupt, "the table \(table) records a relation with the attributes "
                    + "\(String(reflecting: encoded)) and the delete rule \(String(reflecting: ruleName)), which are not "
                    + "a JSON array of strings and deny, cascade or nullify")
            }
            return DataStoreRelation(itemType: try result.text(row, 1) ?? "", attributes: attributes,
                                     relatedType: try result.text(row, 3) ?? "", onDelete: rule,
                                     name: try result.text(row, 0) ?? "")
        }
    }

    static func rule(named name: String) -> DataStoreRelation.DeleteRule? {
        switch name {
        case "deny": .deny
        case "cascade": .cascade
        case "nullify": .nullify
        default: nil
        }
    }

    /// The relations of `schema`: the declared ones in the order they were declared (with the
    /// foreign key of their name on their table, if it has one), then the foreign keys of item
    /// types to the primary key of an item type, by table and name.
    ///
    /// A foreign key to other columns (a `UNIQUE` one) or to a table that is not an item type is
    /// not a reference to an item's identifier: it is left out (a migration notes it).
    static func build(declared: [DataStoreRelation], foreignKeys: [ForeignKey], schema: StoreSchema) -> [StoredRelation] {
        var tablesByName: [String: TableSchema] = [:]
        for table in schema.tables.values { tablesByName[table.name] = table }
        var relations: [StoredRelation] = []
        var claimed: Set<String> = []
        for relation in declared {
            let table = schema.tables[relation.itemType]?.name
            let key = foreignKeys.first { $0.name == relation.name && $0.table == table }
            if let key { claimed.insert(key.table + "\u{0}" + key.name) }
            relations.append(StoredRelation(relation: relation, isDeclared: true, foreignKey: key))
        }
        for key in foreignKeys where !claimed.contains(key.table + "\u{0}" + key.name) {
            guard let table = tablesByName[key.table], let referred = tablesByName[key.referredTable],
                  !referred.rowKey.isKeyless else { continue }
            let keyColumns = referred.rowKey.columns.map(\.name)
            guard keyColumns.count == key.referredColumns.count, Set(keyColumns) == Set(key.referredColumns) else { continue }
            // The referring columns in the order of the referred identifier's components.
            var ordered = key
            ordered.columns = keyColumns.compactMap { column in
                key.referredColumns.firstIndex(of: column).map { key.columns[$0] }
            }
            ordered.referredColumns = keyColumns
            let attributes = ordered.columns.map { column in
                table.columns.first { $0.name == column }?.attribute ?? column
            }
            let relation = DataStoreRelation(itemType: table.itemType, attributes: attributes,
                                             relatedType: referred.itemType, onDelete: key.deleteRule, name: key.name)
            relations.append(StoredRelation(relation: relation, isDeclared: false, foreignKey: ordered))
        }
        return relations
    }
}
