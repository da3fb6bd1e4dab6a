import Foundation

/// The engine hooks of typed entities: how an engine reads and writes entities as rows laid out by
/// an ``EntityPlan`` instead of as items.
///
/// An engine opts in by making its `StoreReader` conform to ``EntityRowReading`` and its
/// `StoreWriter` to ``EntityRowWriting``; every other reader and writer gets
/// ``GeneralEntityRows``, which goes through items, so engines that keep items (the in-memory
/// store, child stores, wrappers outside this package) need nothing. An engine may also take only
/// the rows it can handle and pass the others to the general path: its sink calls
/// `writer.insert(row.item())` and the like.
///
/// ```swift
/// extension MyWriter: EntityRowWriting {
///     func entityRowSink(forType itemType: String) -> any EntityRowSink { MySink(writer: self) }
/// }
/// ```
package protocol EntityRowReading: AnyObject {
    /// Calls `body` with each row the request selects, in the request's order, honouring offset
    /// and limit, as `forEachItem(matching:_:)` would give items. Stops when `body` returns
    /// `false`. The source is valid only during the call.
    func forEachEntityRow(matching request: DataStoreRequest, _ body: (any EntityRowSource) throws -> Bool) throws

    /// Calls `body` with the row of `itemType` with identifier `id`; `nil` when there is none.
    func withEntityRow<T>(ofType itemType: String, id: ItemID, _ body: (any EntityRowSource) throws -> T) throws -> T?
}

/// One stored row, positioned by the engine, from which an entity is decoded.
package protocol EntityRowSource: AnyObject {
    /// The row's identifier.
    func identifier() throws -> ItemID

    /// The reader of the attribute slots of `plan` in this source's rows. Decoding makes one per
    /// source and plan, then asks it for each slot as the model asks for its key.
    func columns(for plan: EntityPlan) -> any EntityRowColumns

    /// Puts one value per attribute slot of `plan` into `values` (`.null` where the row has none);
    /// the identifier's slot is left alone.
    ///
    /// - Returns: whether the row has attributes the plan has no slot for.
    func fill(_ values: UnsafeMutableBufferPointer<Value>, for plan: EntityPlan) throws -> Bool

    /// The attribute `name`, for keys a model asks for outside its plan; `nil` when absent.
    func value(named name: String) throws -> Value?

    /// The whole row as an item: the general path, which gives the canonical errors.
    func item() throws -> Item

    /// Checks the values of the current row a typed decode did not read, as reading the whole
    /// row as an item would: `read` has bit `slot` set for each attribute slot of `plan` the
    /// decode read (slots from 64 on count as unread; ``EntityPlan/attributeMask`` is every
    /// slot), and the row's values outside the plan are unread too. Throws when a value cannot
    /// be read; the entity is then decoded the general way, which reports it. Runs after every
    /// typed decode, so the case of nothing to check must cost next to nothing.
    func checkUnread(_ read: UInt64, for plan: EntityPlan) throws
}

/// Reads the attribute slots of one plan from the row its source is at.
package protocol EntityRowColumns: AnyObject {
    /// The value of the attribute in `slot` (not the identifier's slot) in the source's current
    /// row; `.null` when the row has none.
    func value(atSlot slot: Int) throws -> Value

    /// The string in attribute `slot` of the current row, read straight from storage when the
    /// engine holds it as exactly that; `nil` for anything else (no value, another kind, a value
    /// that needs converting), which the decoder then reads through ``value(atSlot:)``.
    ///
    /// These shortcuts spare a `Value` per attribute on the typed read path. An engine that
    /// gives one must give exactly what ``value(atSlot:)`` gives, as that kind.
    func string(atSlot slot: Int) -> String?
    /// The integer in attribute `slot`, as ``string(atSlot:)`` reads a string.
    func integer(atSlot slot: Int) -> Int64?
    /// The double in attribute `slot`, as ``string(atSlot:)`` reads a string.
    func double(atSlot slot: Int) -> Double?
    /// The bool in attribute `slot`, as ``string(atSlot:)`` reads a string.
    func bool(atSlot slot: Int) -> Bool?
    /// The date in attribute `slot`, as ``string(atSlot:)`` reads a string.
    func date(atSlot slot: Int) -> Date?
}

extension EntityRowColumns {
    // Engines without shortcuts read every attribute through `value(atSlot:)`.
    package func string(atSlot slot: Int) -> String? { nil }
    package func integer(atSlot slot: Int) -> Int64? { nil }
    package func double(atSlot slot: Int) -> Double? { nil }
    package func bool(atSlot slot: Int) -> Bool? { nil }
    package func date(atSlot slot: Int) -> Date? { nil }
}

/// Writes the rows of one entity type within one write block.
///
/// Each operation has the semantics of the `StoreWriter` operation of the same name applied to
/// `row.item()`, including its errors.
package protocol EntityRowSink: AnyObject {
    /// Adds the row's item, which must not be stored yet.
    func insert(_ row: EntityRow) throws
    /// Adds the row's item, or replaces the stored item with the same identifier.
    func save(_ row: EntityRow) throws
    /// Replaces the stored item with the same identifier; `false` (and nothing written) when
    /// there is none.
    func update(_ row: EntityRow) throws -> Bool
}

/// A writer that takes entity rows.
///
/// The SQLite, GDBM and PostgreSQL writers adopt it; PostgreSQL's binds rows as binary parameters
/// of the table's prepared statements and passes the rows it cannot bind to the general path.
package protocol EntityRowWriting: EntityRowReading {
    /// A sink for rows of `itemType`, kept for the rest of the write block.
    func entityRowSink(forType itemType: String) -> any EntityRowSink
}

/// The general path: entity rows as items, through any reader and writer.
package final class GeneralEntityRows: EntityRowWriting {
    private let reader: any StoreReader
    private let writer: (any StoreWriter)?

    /// The general path for reading through `reader`; its sinks refuse to write.
    package init(reader: any StoreReader) {
        self.reader = reader
        writer = nil
    }

    /// The general path for reading and writing through `writer`.
    package init(writer: any StoreWriter) {
        reader = writer
        self.writer = writer
    }

    package func forEachEntityRow(matching request: DataStoreRequest, _ body: (any EntityRowSource) throws -> Bool) throws {
        let source = ItemRowSource()
        try reader.forEachItem(matching: request) { item in
            source.current = item
            return try body(source)
        }
    }

    package func withEntityRow<T>(ofType itemType: String, id: ItemID, _ body: (any EntityRowSource) throws -> T) throws -> T? {
        guard let item = try reader.item(ofType: itemType, id: id) else { return nil }
        let source = ItemRowSource()
        source.current = item
        return try body(source)
    }

    package func entityRowSink(forType itemType: String) -> any EntityRowSink {
        GeneralEntitySink(writer: writer)
    }
}

/// A stored item as a row.
package final class ItemRowSource: EntityRowSource {
    /// The item the source stands for.
    package var current = Item(itemType: "", id: .int(0))

    package init() {}

    package func identifier() throws -> ItemID { current.id }

    package func fill(_ values: UnsafeMutableBufferPointer<Value>, for plan: EntityPlan) throws -> Bool {
        var found = 0
        for slot in plan.attributeSlots {
            if let value = current.attributes[plan.names[slot]] {
                values[slot] = value
                found += 1
            } else {
                values[slot] = .null
            }
        }
        return found != current.attributes.count
    }

    package func columns(for plan: EntityPlan) -> any EntityRowColumns {
        SlotLookupColumns { [self] slot in current.attributes[plan.names[slot]] ?? .null }
    }

    package func value(named name: String) throws -> Value? { current.attributes[name] }

    package func item() throws -> Item { current }

    /// Nothing to check: the item's values were read already.
    package func checkUnread(_ read: UInt64, for plan: EntityPlan) throws {}
}

/// Columns that look each slot's value up: for sources that keep no columns of their own.
package final class SlotLookupColumns: EntityRowColumns {
    private let lookUp: (Int) throws -> Value

    /// Columns whose slot `slot` holds `lookUp(slot)` for the source's current row.
    package init(_ lookUp: @escaping (Int) throws -> Value) {
        self.lookUp = lookUp
    }

    package func value(atSlot slot: Int) throws -> Value {
        try lookUp(slot)
    }
}

/// Writes rows as items.
package final class GeneralEntitySink: EntityRowSink {
    private let writer: (any StoreWriter)?

    package init(writer: (any StoreWriter)?) {
        self.writer = writer
    }

    private func checkedWriter() throws -> any StoreWriter {
        guard let writer else { throw DataStoreError.misuse("entities cannot be written through a read transaction") }
        return writer
    }

    package func insert(_ row: EntityRow) throws {
        try checkedWriter().insert(row.item())
    }

    package func save(_ row: EntityRow) throws {
        try checkedWriter().save(row.item())
    }

    package func update(_ row: EntityRow) throws -> Bool {
        let writer = try checkedWriter()
        guard try writer.item(ofType: row.plan.itemType, id: row.id) != nil else { return false }
        try writer.save(row.item())
        return true
    }
}
