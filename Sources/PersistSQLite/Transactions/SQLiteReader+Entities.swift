import Foundation
import Persist

/// Typed reads decode entities straight from result columns.
extension SQLiteReader: EntityRowReading {
    func forEachEntityRow(matching request: DataStoreRequest, _ body: (any EntityRowSource) throws -> Bool) throws {
        try forEachRow(matching: request, start: SQLiteRowSource.init) { source in
            try source.advance()
            return try body(source)
        }
    }

    func withEntityRow<T>(ofType itemType: String, id: ItemID, _ body: (any EntityRowSource) throws -> T) throws -> T? {
        try withRow(ofType: itemType, id: id) { decoder, statement in
            let source = SQLiteRowSource(decoder: decoder, statement: statement)
            try source.advance()
            return try body(source)
        }
    }
}

/// The row a statement selecting ``TableSchema/selectList`` is at.
final class SQLiteRowSource: EntityRowSource {
    private let decoder: RowDecoder
    private let statement: SQLiteStatement
    private var id: ItemID = .int(0)
    private var layout: SQLiteEntityLayout?
    /// The plan of ``layout``, and the slots a decode through it reads when it leaves nothing of
    /// the row unread (`nil` when some column is outside the plan): kept apart so that the check
    /// after every decode touches no reference.
    private var layoutPlan: ObjectIdentifier?
    private var completeRead: UInt64?

    init(decoder: RowDecoder, statement: SQLiteStatement) {
        self.decoder = decoder
        self.statement = statement
    }

    /// Takes the statement's new current row: reads its key first, as ``RowDecoder/item(_:)`` does.
    func advance() throws {
        id = try decoder.identifier(statement)
    }

    func identifier() throws -> ItemID { id }

    /// The layout of `plan` over the statement's table.
    @inline(__always)
    private func layout(for plan: EntityPlan) -> SQLiteEntityLayout {
        if let layout, layout.plan === plan { return layout }
        let table = decoder.table
        let resolved = table.entityLayouts.layout(for: plan) { SQLiteEntityLayout(plan: plan, table: table) }
        layout = resolved
        layoutPlan = ObjectIdentifier(plan)
        completeRead = resolved.columnsWithoutSlot.isEmpty ? plan.attributeMask : nil
        return resolved
    }

    func columns(for plan: EntityPlan) -> any EntityRowColumns {
        SQLiteRowColumns(layout: layout(for: plan), statement: statement, decoder: decoder)
    }

    func fill(_ values: UnsafeMutableBufferPointer<Value>, for plan: EntityPlan) throws -> Bool {
        try layout(for: plan).fill(values, from: statement, decoder: decoder, id: id)
    }

    func value(named name: String) throws -> Value? {
        guard let column = decoder.table.columnIndex[name] else { return nil }
        guard let found = statement.column(Int32(column + decoder.table.key.width)) else { return nil }
        return try decoder.value(found, decoder.table.columns[column].storage, column, id)
    }

    func item() throws -> Item { try decoder.item(statement) }

    func checkUnread(_ read: UInt64, for plan: EntityPlan) throws {
        if read == completeRead, layoutPlan == ObjectIdentifier(plan) { return }
        try layout(for: plan).checkUnread(read, in: statement, decoder: decoder, id: id)
    }
}

/// The attribute slots of one plan in the row a statement is at.
final class SQLiteRowColumns: EntityRowColumns {
    private let layout: SQLiteEntityLayout
    private let statement: SQLiteStatement
    private let decoder: RowDecoder

    init(layout: SQLiteEntityLayout, statement: SQLiteStatement, decoder: RowDecoder) {
        self.layout = layout
        self.statement = statement
        self.decoder = decoder
    }

    func value(atSlot slot: Int) throws -> Value {
        // The identifier is read again only to name the row in an error.
        try layout.value(atSlot: slot, from: statement, decoder: decoder, id: (try? decoder.identifier(statement)) ?? .int(0))
    }

    // The shortcuts read the columns RowDecoder would read as they are: TEXT of a string column,
    // INTEGER of a number or bool column, REAL of a number or date column.

    func string(atSlot slot: Int) -> String? {
        layout.column(atSlot: slot, of: .string, storedAs: .text, in: statement)?.text
    }

    func integer(atSlot slot: Int) -> Int64? {
        layout.column(atSlot: slot, of: .number, storedAs: .integer, in: statement)?.int64
    }

    func double(atSlot slot: Int) -> Double? {
        layout.column(atSlot: slot, of: .number, storedAs: .real, in: statement)?.double
    }

    func bool(atSlot slot: Int) -> Bool? {
        layout.column(atSlot: slot, of: .bool, storedAs: .integer, in: statement).map { $0.int64 != 0 }
    }

    func date(atSlot slot: Int) -> Date? {
        layout.column(atSlot: slot, of: .date, storedAs: .real, in: statement).map {
            Date(timeIntervalSinceReferenceDate: $0.double)
        }
    }
}
