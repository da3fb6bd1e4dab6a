import Persist

extension SQLiteReader {
    /// The largest integer key or, for an `AUTOINCREMENT` table, the largest key the table ever
    /// had (`sqlite_sequence`), if larger.
    func integerIDFloor(ofType itemType: String) throws -> Int64? {
        var largest = try largestIntegerID(ofType: itemType)
        if try checkedSchema.takenNames["sqlite_sequence"] != nil, let table = try checkedSchema.tables[itemType] {
            let sequence = try connection.withStatement(
                "SELECT seq FROM sqlite_sequence WHERE name = ?1", [.text(table.name)]
            ) { statement in
                try statement.step(Self.reading(itemType)) && statement.storageClass(0) == .integer ? statement.int64(0) : nil
            }
            if let sequence, sequence > (largest ?? .min) { largest = sequence }
        }
        return largest
    }
}

extension SQLiteWriter {
    /// The identifier SQLite itself would give a new row: one above ``SQLiteReader/integerIDFloor(ofType:)``.
    /// The write transaction holds the database's write lock, so no other connection or process
    /// can take it before the block commits; inserting it then advances `sqlite_sequence` as any
    /// insert does, so legacy code using the table never hands it out again.
    func nextIntegerID(ofType itemType: String) throws -> Int64 {
        try IntegerIDs.after(integerIDFloor(ofType: itemType), itemType: itemType)
    }
}
