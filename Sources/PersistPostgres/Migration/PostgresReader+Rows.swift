import Persist

/// Streaming a PostgreSQL source for ``Migration``: each table through a cursor (a batch of rows at
/// a time, so memory stays flat), every row handed on as an `ItemRow` whose shape is shared with
/// the other rows that have the same attributes.
extension PostgresReader: RowStreamingReader {
    func forEachRow(ofTypes types: Set<String>?, _ body: (ItemRow) throws -> Bool) throws {
        let chosen = try itemTypes().filter { types?.contains($0) ?? true }
        for itemType in chosen {
            var shapes: [[String]: AttributeNames] = [:]
            var goOn = true
            try forEachItem(matching: DataStoreRequest(itemType: itemType)) { item in
                let names = item.attributes.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                let shape: AttributeNames
                if let known = shapes[names] {
                    shape = known
                } else {
                    shape = AttributeNames(sorted: names)
                    shapes[names] = shape
                }
                let values = names.map { item.attributes[$0] ?? .null }
                goOn = try body(ItemRow(itemType: item.itemType, id: item.id, names: shape, values: values))
                return goOn
            }
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
