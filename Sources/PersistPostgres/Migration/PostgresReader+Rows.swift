import Persist
import PersistSQL

/// Streaming a PostgreSQL source for ``Migration``: each table through a cursor (a batch of rows at
/// a time, so memory stays flat), every row decoded column by column straight into an `ItemRow`
/// (no dictionary per item) whose shape is shared with the other rows that have the same non-NULL
/// columns. A value Persist can only read as a nearby one (see ``ColumnType/inexactness(_:)``)
/// stops the stream: a migration copies exactly or not at all.
extension PostgresReader: RowStreamingReader {
    func forEachRow(ofTypes types: Set<String>?, _ body: (ItemRow) throws -> Bool) throws {
        let chosen = try itemTypes().filter { types?.contains($0) ?? true }
        for itemType in chosen {
            var goOn = true
            var shapes = ShapeCache()
            try forEachRow(matching: DataStoreRequest(itemType: itemType), items: { item in
                goOn = try body(ItemRow(item))
                return goOn
            }, rows: { decoder, row in
                goOn = try body(shapes.row(decoder, row))
                return goOn
            })
            if !goOn { return }
        }
    }

    func countRows(ofTypes types: Set<String>?) throws -> (total: Int, perType: [String: Int]?) {
        var perType: [String: Int] = [:]
        for itemType in try itemTypes() where types?.contains(itemType) ?? true {
            perType[itemType] = try countItems(matching: DataStoreRequest(itemType: itemType))
        }
        return (perType.values.reduce(0, +), perType)
    }
}

/// A table's rows as item rows, their shapes shared (see `RowShapes`).
private struct ShapeCache {
    /// The table's column offsets in ascending UTF-8 order of their attributes, and the shapes
    /// over that order, worked out at the first row.
    private var order: [Int] = []
    private var shapes = RowShapes(sortedNames: [])
    private var isPrepared = false

    mutating func row(_ decoder: RowDecoder, _ row: Int) throws -> ItemRow {
        let columns = decoder.table.columns
        guard columns.count <= RowShapes.maximumColumns else { return ItemRow(try decoder.exactItem(row)) }
        if !isPrepared {
            isPrepared = true
            order = columns.indices.sorted {
                ByteOrder.precedes(columns[$0].attribute, columns[$1].attribute)
            }
            shapes = RowShapes(sortedNames: order.map { columns[$0].attribute })
        }
        let id = try decoder.identifier(row)
        var values: [Value] = []
        values.reserveCapacity(order.count)
        var present: UInt64 = 0
        for (position, offset) in order.enumerated() {
            guard let value = try decoder.exactValue(row, column: offset, id: id) else { continue }
            values.append(value)
            present |= 1 << UInt64(position)
        }
        let shape = shapes.shape(present: present)
        return ItemRow(itemType: decoder.table.itemType, id: id, names: shape, values: values)
    }
}
