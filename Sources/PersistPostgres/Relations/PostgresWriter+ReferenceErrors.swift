import Persist
import PersistSQL

extension PostgresWriter {
    /// `error` as a `referenceViolation` naming both items when it is PostgreSQL's foreign key
    /// violation at a statement (an adopted foreign key checked at once): the item written
    /// (`reference`) refers to a missing one, or a deleted item is still referred to, by the first
    /// referring row found. Called after the savepoint was rolled back, so the block can still
    /// read. Any other error is returned as it is.
    func namingReferences(_ error: any Error, writing reference: ItemReference?) -> any Error {
        guard let error = error as? DataStoreError,
              error.engineCode == PostgresSQLState.foreignKeyViolation.engineCode,
              let failure = transaction.session.connection.lastFailure,
              let parsed = ReferenceFailure(failure, schema: schema) else { return error }
        var referrer: ItemReference?
        if parsed.isStillReferenced {
            referrer = try? firstReferrer(parsed)
        } else if let reference, reference.itemType == parsed.stored.relation.itemType {
            referrer = reference
        }
        return parsed.error(error, referrer: referrer, said: PostgresErrors.said(failure), atCommit: false)
    }

    /// The first item (by key) that refers to the referred item of `parsed`.
    private func firstReferrer(_ parsed: ReferenceFailure) throws -> ItemReference? {
        guard transaction.failure == nil, let referred = parsed.referred, let key = parsed.stored.foreignKey,
              let table = schema.tables[parsed.stored.relation.itemType],
              let related = schema.tables[parsed.stored.relation.relatedType] else { return nil }
        let components = referred.id.components
        guard components.count == key.columns.count, components.count == related.rowKey.columns.count else { return nil }
        var conditions: [String] = []
        var parameters: [PGValue] = []
        for (offset, (column, keyColumn)) in zip(key.columns, related.rowKey.columns).enumerated() {
            let component = components[offset]
            let text = keyColumn.type == .mixed ? TableKey.hex(MixedValueCoding.encodeID(component))
                : TableKey.text(component, keyColumn.type)
            guard let text else { return nil }
            conditions.append("\(SQLName.quoted(column)) = $\(offset + 1)::text::\(TableKey.castType(keyColumn.type))")
            parameters.append(.text(text))
        }
        let sql = "SELECT \(table.selectList) FROM \(table.qualified) WHERE \(conditions.joined(separator: " AND ")) "
            + "ORDER BY \(table.keyOrder) LIMIT 1"
        let result = try transaction.run([PGCommand(sql, parameters, operation: "Finding a referring item")])[0]
        let decoder = try RowDecoder(table: table, result: result, location: location)
        guard decoder.rowCount > 0 else { return nil }
        return ItemReference(itemType: table.itemType, id: try decoder.identifier(0))
    }
}
