import Foundation
import Persist
import PersistSQL

/// Declared relations: recorded in `persist_relations`, and made foreign keys where PostgreSQL
/// can carry them out (see ``ForeignKeyPlan``); the others the accessor enforces.
extension PostgresWriter {
    /// Declares `relation`: records it and, where its tables and columns exist and the referring
    /// columns can hold the related key, adds the foreign key `ON DELETE … DEFERRABLE INITIALLY
    /// DEFERRED`.
    ///
    /// - Throws: `invalidArgument` naming the relation when the related table has no primary key;
    ///   `referenceViolation` when PostgreSQL finds a stored row that breaks the foreign key.
    func ensureRelation(_ relation: DataStoreRelation) throws -> Bool? {
        try checkTransaction()
        if schema.relations.contains(where: { $0.relation.hasSameRules(as: relation) }) { return false }
        if let related = schema.tables[relation.relatedType] {
            if related.rowKey.isKeyless {
                throw DataStoreError(
                    .invalidArgument,
                    "the relation \(relation.name) (\(relation)) cannot be declared: the table \(related.qualified) of "
                        + "\(relation.relatedType) in PostgreSQL at \(location) has no primary key, so its items have no "
                        + "stable identifier to refer to; nothing was declared. Add a primary key to the table first",
                    path: location)
            }
            let components = related.rowKey.isComposite ? related.rowKey.columns.count : nil
            if let components, components != relation.attributes.count {
                throw DataStoreError(
                    .invalidArgument,
                    "the relation \(relation.name) names \(relation.attributes.count) attribute(s) of "
                        + "\(relation.itemType), but the identifiers of \(relation.relatedType) have \(components) "
                        + "component(s) (the primary key \(related.rowKey.described) of table \(related.qualified)); "
                        + "nothing was declared", path: location)
            }
        }
        try editor.ensureRelationTable(&schema)
        let operation = "Declaring the relation \(relation.name) (\(relation))"
        let catalog = schema.qualified(StoreSchema.relationsTable)
        let encoded = String(decoding: try JSONEncoder().encode(relation.attributes), as: UTF8.self)
        var stored = StoredRelation(relation: relation, isDeclared: true, foreignKey: nil)
        if let plan = ForeignKeyPlan(relation, schema: schema) {
            stored.foreignKey = try addForeignKey(plan)
        }
        _ = try transaction.run([PGCommand(
            "INSERT INTO \(catalog) (position, name, item_type, attributes, related_type, on_delete) "
                + "SELECT coalesce(max(position), 0) + 1, $1, $2, $3, $4, $5 FROM \(catalog)",
            [.text(relation.name), .text(relation.itemType), .text(encoded), .text(relation.relatedType),
             .text(relation.onDelete.description)], prepared: true, operation: operation)])
        let declaredCount = schema.relations.prefix { $0.isDeclared }.count
        schema.relations.insert(stored, at: declaredCount)
        schemaChanges.append("declared the relation \(relation.name) (\(relation))"
            + (stored.isForeignKey ? " as a foreign key" : ", enforced by Persist"))
        return true
    }

    /// Whether PostgreSQL carries out the delete rule of `relation`: it is a foreign key.
    func appliesDeleteRule(of relation: DataStoreRelation) -> Bool {
        schema.relations.contains { $0.isForeignKey && $0.relation.itemType == relation.itemType
            && $0.relation.name == relation.name }
    }

    /// Adds the foreign keys of declared relations that have none yet and now can (their tables or
    /// columns were made in this block, or widened to the same encoding): run before the block
    /// commits, after the accessor checked its references.
    func materializeRelations() throws {
        guard !schemaChanges.isEmpty else { return }
        var added = false
        for (offset, stored) in schema.relations.enumerated() where stored.isDeclared && !stored.isForeignKey {
            guard let plan = ForeignKeyPlan(stored.relation, schema: schema) else { continue }
            guard let key = try addForeignKey(plan) else { continue }
            schema.relations[offset].foreignKey = key
            schemaChanges.append("made the relation \(stored.relation.name) a foreign key")
            added = true
        }
        if added { try reloadSchema() }
    }

    /// Adds the foreign key of `plan` in a savepoint; `nil` when PostgreSQL refuses it for a reason
    /// other than stored rows that break it (the relation is then enforced by Persist).
    ///
    /// - Throws: `referenceViolation` naming the first row that breaks it.
    private func addForeignKey(_ plan: ForeignKeyPlan) throws -> ForeignKey? {
        let command = PGCommand(plan.addStatement, operation: "Declaring the relation \(plan.relation.name)")
        do {
            _ = try inSavepoint(nil, command) { _ in }
            retireStatementsAfterSchemaChange()
            return plan.foreignKey
        } catch let error as DataStoreError where error.engineCode == PostgresSQLState.foreignKeyViolation.engineCode {
            throw try brokenReference(plan, error)
        } catch let error as DataStoreError where !PostgresSession.isConnectionLoss(error) && error.engineCode != nil {
            noteSchemaChange("kept the relation \(plan.relation.name) for Persist to enforce: PostgreSQL refused its "
                + "foreign key (\(error.engineMessage ?? error.message))")
            return nil
        }
    }

    /// The error for stored rows that break the foreign key of `plan`: the first of them (by key)
    /// and the item it refers to.
    private func brokenReference(_ plan: ForeignKeyPlan, _ error: DataStoreError) throws -> DataStoreError {
        let referring = plan.table
        let matches = zip(plan.columns, plan.related.rowKey.columns).map { "r.\($0.quoted) = k.\($1.quoted)" }
        let present = plan.columns.map { "\($0.quoted) IS NOT NULL" }
        let sql = "SELECT \(referring.selectList) FROM \(referring.qualified) r WHERE \(present.joined(separator: " AND ")) "
            + "AND NOT EXISTS (SELECT 1 FROM \(plan.related.qualified) k WHERE \(matches.joined(separator: " AND "))) "
            + "ORDER BY \(referring.keyOrder) LIMIT 1"
        let result = try transaction.run([PGCommand(sql, operation: "Finding a broken reference")])[0]
        let decoder = try RowDecoder(table: referring, result: result, location: location)
        var items: [ItemReference] = []
        if decoder.rowCount > 0 { items.append(ItemReference(itemType: referring.itemType, id: try decoder.identifier(0))) }
        let first = items.first.map { "\($0) refers to an item of \(plan.relation.relatedType) that is not stored" }
            ?? "a stored row refers to an item of \(plan.relation.relatedType) that is not stored"
        return DataStoreError(
            .referenceViolation,
            "the relation \(plan.relation.name) (\(plan.relation)) cannot be declared in PostgreSQL at \(location): "
                + "\(first); nothing was declared. Store the missing item or clear the reference first",
            path: location, engineCode: error.engineCode, engineMessage: error.engineMessage, items: items)
    }

    /// Prepared statements over a table whose constraints changed are prepared again.
    private func retireStatementsAfterSchemaChange() {
        editor.retireStatements()
    }
}
