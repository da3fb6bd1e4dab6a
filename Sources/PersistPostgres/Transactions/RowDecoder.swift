import Persist

/// Turns result rows of `SELECT *` (or `RETURNING *`) on a table into items.
struct RowDecoder {
    let table: TableSchema
    let result: PGResult
    let location: String
    /// The result column of the key.
    private let keyColumn: Int
    /// The result column of each column of a composite key, in key order; empty otherwise.
    private let keyComponents: [Int]
    /// The result column of each attribute column, by its offset in ``TableSchema/columns``.
    private let resultIndex: [Int]

    /// A decoder for `result`, after checking that its columns are the table's, as the schema has them.
    ///
    /// - Throws: ``StaleSchema`` when the table changed since the schema was read (another
    ///   connection added or retyped a column), so the caller reads the schema again.
    init(table: TableSchema, result: PGResult, location: String) throws {
        self.table = table
        self.result = result
        self.location = location
        let layout = table.layout
        guard result.columnCount == layout.count else { throw StaleSchema(table: table.itemType) }
        var keyColumn = 0
        var keyComponents = [Int](repeating: 0, count: table.rowKey.isComposite ? table.rowKey.columns.count : 0)
        var resultIndex = [Int](repeating: -1, count: table.columns.count)
        for (index, expected) in layout.enumerated() {
            guard result.columnName(index, equals: expected.cName),
                  expected.typeOID.map({ $0 == result.columnType(index) }) ?? true else {
                throw StaleSchema(table: table.itemType)
            }
            switch expected.role {
            case .key: keyColumn = index
            case .keyComponent(let offset): keyComponents[offset] = index
            case .attribute(let offset): resultIndex[offset] = index
            case .ignored: break
            }
        }
        self.keyColumn = keyColumn
        self.keyComponents = keyComponents
        self.resultIndex = resultIndex
    }

    /// Whether the attribute column at `offset` (in ``TableSchema/columns``) is NULL in row `row`.
    func isNull(_ row: Int, column offset: Int) -> Bool {
        result.isNull(row, resultIndex[offset])
    }

    /// The value of the attribute column at `offset` (in ``TableSchema/columns``) in row `row`,
    /// of the item with identifier `id` (for errors); `nil` for NULL.
    func value(_ row: Int, column offset: Int, id: ItemID) throws -> Value? {
        let type = table.columns[offset].type
        do {
            return try result.withValue(row, resultIndex[offset]) { try type.decode($0) } ?? nil
        } catch let failure as DecodingFailure {
            throw failure.error(at: describe(table.columns[offset], id), path: location,
                                items: [ItemReference(itemType: table.itemType, id: id)])
        }
    }

    /// ``value(_:column:id:)``, refusing a value that Persist would read as a nearby one (see
    /// ``ColumnType/inexactness(_:)``): what a migration copies must be what the column holds.
    ///
    /// - Throws: ``DataStoreError/Code/unsupported`` naming the item, the column and the value.
    func exactValue(_ row: Int, column offset: Int, id: ItemID) throws -> Value? {
        let column = table.columns[offset]
        if column.type.mayBeInexact,
           let inexact = try result.withValue(row, resultIndex[offset], { column.type.inexactness($0) }) ?? nil {
            throw DataStoreError(
                .unsupported,
                "\(describe(column, id)) holds \(inexact), so it cannot be copied exactly; convert the column with SQL "
                    + "(ALTER TABLE … ALTER COLUMN \(column.quoted) TYPE text) or leave its type out",
                path: location, items: [ItemReference(itemType: table.itemType, id: id)])
        }
        return try value(row, column: offset, id: id)
    }

    /// ``item(_:)``, each value read by ``exactValue(_:column:id:)``.
    func exactItem(_ row: Int) throws -> Item {
        let id = try identifier(row)
        var attributes: [String: Value] = [:]
        for offset in table.columns.indices {
            guard let value = try exactValue(row, column: offset, id: id) else { continue }
            attributes[table.columns[offset].attribute] = value
        }
        return Item(itemType: table.itemType, id: id, attributes: attributes)
    }

    var rowCount: Int { result.rowCount }

    /// The item in row `row`.
    func item(_ row: Int) throws -> Item {
        let id = try identifier(row)
        let columns = table.columns
        let attributes = try AttributeAssembly.attributes(over: table.columnIndex) { offset in
            let index = resultIndex[offset]
            guard index >= 0 else { return nil }
            do {
                return try result.withValue(row, index) { try columns[offset].type.decode($0) } ?? nil
            } catch let failure as DecodingFailure {
                throw failure.error(at: describe(columns[offset], id), path: location,
                                    items: [ItemReference(itemType: table.itemType, id: id)])
            }
        }
        return Item(itemType: table.itemType, id: id, nonNullAttributes: attributes)
    }

    /// The identifier in row `row`.
    func identifier(_ row: Int) throws -> ItemID {
        if !keyComponents.isEmpty { return try compositeIdentifier(row) }
        let id: ItemID?
        do {
            id = try result.withValue(row, keyColumn) { try table.key.type.decodeID($0) }
        } catch let failure as DecodingFailure {
            throw failure.error(at: "the key \(table.key.quoted) of a row of table \(table.qualified) in PostgreSQL at "
                + "\(location)", path: location)
        }
        guard let id else {
            throw DataStoreError(.corrupt, "a row of table \(table.qualified) in PostgreSQL at \(location) has NULL "
                + "as its key \(table.key.quoted)", path: location)
        }
        return id
    }

    /// The identifier in row `row` of a table with a composite key: its key columns' values.
    private func compositeIdentifier(_ row: Int) throws -> ItemID {
        var components: [ItemID] = []
        components.reserveCapacity(keyComponents.count)
        for (column, index) in zip(table.rowKey.columns, keyComponents) {
            let component: ItemID?
            do {
                component = try result.withValue(row, index) { try column.type.decodeID($0) }
            } catch let failure as DecodingFailure {
                throw failure.error(at: "the key column \(column.quoted) of a row of table \(table.qualified) in "
                    + "PostgreSQL at \(location)", path: location)
            }
            guard let component else {
                throw DataStoreError(.corrupt, "a row of table \(table.qualified) in PostgreSQL at \(location) has NULL "
                    + "in its key column \(column.quoted)", path: location)
            }
            components.append(component)
        }
        return .composite(components)
    }

    private func describe(_ column: ColumnSchema, _ id: ItemID) -> String {
        "the column \(column.quoted) of item \(ItemReference(itemType: table.itemType, id: id)) in table "
            + "\(table.qualified) of PostgreSQL at \(location)"
    }
}

/// Thrown when a result does not have the columns the cached schema expects: the schema is read
/// again and the statement runs again.
struct StaleSchema: Error {
    let table: String
}
