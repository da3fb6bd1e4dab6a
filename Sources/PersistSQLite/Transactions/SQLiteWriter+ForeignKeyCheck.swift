internal import CSQLite
import Persist
import PersistSQL

/// A row that breaks a foreign key, as `PRAGMA foreign_key_check` lists it.
struct ForeignKeyBreak: Hashable, Sendable {
    let table: String
    /// `nil` in a `WITHOUT ROWID` table.
    let rowid: Int64?
    let foreignKey: Int64
}

extension SQLiteReader {
    /// SQLite's extended code of a foreign key that refuses a statement or a commit.
    static let foreignKeyConstraint = Int(SQLITE_CONSTRAINT | (3 << 8))

    /// The rows that break a foreign key, in the order SQLite lists them.
    func foreignKeyBreaks() throws -> [ForeignKeyBreak] {
        try connection.withStatement("SELECT \"table\", rowid, fkid FROM pragma_foreign_key_check") { statement in
            var found: [ForeignKeyBreak] = []
            while try statement.step("Checking the foreign keys") {
                found.append(ForeignKeyBreak(table: statement.text(0), rowid: statement.storageClass(1) == nil ? nil : statement.int64(1),
                                             foreignKey: statement.int64(2)))
            }
            return found
        }
    }
}

extension SQLiteWriter {
    /// The `referenceViolation` of a commit SQLite refused for a foreign key (`error`), naming the
    /// first row of the block's transaction that breaks one and not already broken before it
    /// (`committed`, the breaks of the last commit: a legacy file may hold some), and the item it
    /// refers to. Runs while the transaction is still open.
    func foreignKeyViolation(_ error: DataStoreError, committed: Set<ForeignKeyBreak>) -> DataStoreError {
        var violation = error
        violation.code = .referenceViolation
        guard let breaks = try? foreignKeyBreaks(),
              let first = breaks.first(where: { !committed.contains($0) }) ?? breaks.first else {
            violation.message = "A foreign key of the database refused the commit; nothing of the block was stored."
            return violation
        }
        let key = try? SchemaLoader.foreignKeys(of: first.table, connection).first { $0.id == first.foreignKey }
        let keyName = key?.name.map { "foreign key \($0)" } ?? "a foreign key"
        let referrer = first.rowid.flatMap { try? identifier(inTable: first.table, rowid: $0) }
        let relation = key.flatMap { SchemaLoader.adopted($0, of: first.table, in: schema) }
        let referred = relation.flatMap { relation in
            first.rowid.flatMap { try? referredID(inTable: first.table, rowid: $0, columns: relation.attributes) }
                .map { ItemReference(itemType: relation.relatedType, id: $0) }
        }
        let referring = referrer.map { "\($0)" } ?? "a row of table \(String(reflecting: first.table))"
        let target = referred.map { "\($0)" } ?? "a row of table \(String(reflecting: key?.parent ?? "?"))"
        violation.message = "\(referring) refers to \(target), which is not stored (\(keyName) of table "
            + "\(String(reflecting: first.table)), which SQLite enforces); nothing of the block was stored. Store "
            + "\(target) first, or change or delete \(referring), in the same block"
        violation.items = [referrer, referred].compactMap { $0 }
        return violation
    }

    /// The identifier of the row `rowid` of `table`.
    private func identifier(inTable name: String, rowid: Int64) throws -> ItemReference? {
        guard let table = schema.tables[name] else { return nil }
        return try connection.withStatement("SELECT \(table.selectList) FROM \(table.quoted) WHERE rowid = ?1", [.int(rowid)]) { statement in
            guard try statement.step(Self.reading(name)) else { return nil }
            return ItemReference(itemType: name, id: try RowDecoder(table: table, path: path).identifier(statement))
        }
    }

    /// The identifier the row `rowid` of `table` refers to through `columns`.
    private func referredID(inTable name: String, rowid: Int64, columns: [String]) throws -> ItemID? {
        let list = columns.map(SQLName.quoted).joined(separator: ", ")
        return try connection.withStatement("SELECT \(list) FROM \(SQLName.quoted(name)) WHERE rowid = ?1", [.int(rowid)]) { statement in
            guard try statement.step(Self.reading(name)) else { return nil }
            var components: [ItemID] = []
            for index in columns.indices {
                guard let column = statement.column(Int32(index)) else { return nil }
                switch column.storage {
                case .integer: components.append(.int(column.int64))
                case .text: components.append(.string(column.text ?? ""))
                case .blob: components.append(.bytes(column.blob))
                case .real: return nil
                }
            }
            return components.count == 1 ? components[0] : .composite(components)
        }
    }
}
