import Foundation

/// A reader that reads typed entities as rows laid out by an ``EntityPlan`` instead of as items:
/// the typed fast path of ``DataStoreReadAccessor/getAll(_:forRequest:)`` and
/// ``DataStoreReadAccessor/getById(_:id:)``.
///
/// A reader opts in by conforming: ``StoreReader/entityRows`` then answers the reader itself. Every
/// other reader gets the general path, which decodes entities from the items of
/// ``StoreReader/forEachItem(matching:_:)``, so a store that keeps items needs nothing. An engine
/// may also give rows only where it can and items elsewhere: its source's ``EntityRowSource/item()``
/// gives the general path's answer. The `JSONFileStore` example has a complete one.
///
/// ```swift
/// extension MyReader: EntityRowReading {
///     func forEachEntityRow(matching request: DataStoreRequest, _ body: (any EntityRowSource) throws -> Bool) throws { … }
///     func withEntityRow<T>(ofType itemType: String, id: ItemID, _ body: (any EntityRowSource) throws -> T) throws -> T? { … }
/// }
/// ```
public protocol EntityRowReading: AnyObject {
    /// Calls `body` with each row the request selects, in the request's order, honouring offset
    /// and limit, as `forEachItem(matching:_:)` would give items. Stops when `body` returns
    /// `false`. The source is valid only during the call.
    ///
    /// ```swift
    /// try reader.entityRows?.forEachEntityRow(matching: DataStoreRequest(itemType: "Note")) { source in
    ///     print(try source.identifier())
    ///     return true
    /// }
    /// ```
    func forEachEntityRow(matching request: DataStoreRequest, _ body: (any EntityRowSource) throws -> Bool) throws

    /// Calls `body` with the row of `itemType` with identifier `id`; `nil` when there is none.
    ///
    /// ```swift
    /// let note = try reader.entityRows?.withEntityRow(ofType: "Note", id: 1) { source in try source.item() }
    /// ```
    func withEntityRow<T>(ofType itemType: String, id: ItemID, _ body: (any EntityRowSource) throws -> T) throws -> T?
}

extension EntityRowReading where Self: StoreReader {
    /// The reader itself: conforming to ``EntityRowReading`` is opting in.
    public var entityRows: (any EntityRowReading)? { self }
}

/// One stored row, positioned by the engine, from which an entity is decoded.
///
/// Decoding asks the source for the identifier and for the values of the plan's attribute slots,
/// by ``fill(_:for:)`` or one slot at a time through ``columns(for:)``, and checks the values it
/// did not read with ``checkUnread(_:for:)``. A row it cannot decode is read whole with ``item()``.
///
/// ```swift
/// let title = try reader.entityRows?.withEntityRow(ofType: "Note", id: 1) { source in
///     try source.value(named: "title")
/// }
/// ```
public protocol EntityRowSource: AnyObject {
    /// The row's identifier.
    ///
    /// ```swift
    /// let id = try rowSource.identifier()
    /// ```
    func identifier() throws -> ItemID

    /// The reader of the attribute slots of `plan` in this source's rows. Decoding makes one per
    /// source and plan, then asks it for each slot as the model asks for its key.
    ///
    /// ```swift
    /// let columns = rowSource.columns(for: plan)
    /// let first = try plan.attributeSlots.first.map { try columns.value(atSlot: $0) }
    /// ```
    func columns(for plan: EntityPlan) -> any EntityRowColumns

    /// Puts one value per attribute slot of `plan` into `values` (`.null` where the row has none);
    /// the identifier's slot is left alone.
    ///
    /// ```swift
    /// var values = [Value](repeating: .null, count: plan.names.count)
    /// let hasOthers = try values.withUnsafeMutableBufferPointer { try rowSource.fill($0, for: plan) }
    /// ```
    ///
    /// - Returns: whether the row has attributes the plan has no slot for.
    func fill(_ values: UnsafeMutableBufferPointer<Value>, for plan: EntityPlan) throws -> Bool

    /// The attribute `name`, for keys a model asks for outside its plan; `nil` when absent.
    ///
    /// ```swift
    /// let note = try rowSource.value(named: "note")
    /// ```
    func value(named name: String) throws -> Value?

    /// The whole row as an item: the general path, which gives the canonical errors.
    ///
    /// ```swift
    /// let whole = try rowSource.item()
    /// ```
    func item() throws -> Item

    /// Checks the values of the current row a typed decode did not read, as reading the whole
    /// row as an item would: `read` has bit `slot` set for each attribute slot of `plan` the
    /// decode read (slots from 64 on count as unread; ``EntityPlan/attributeMask`` is every
    /// slot), and the row's values outside the plan are unread too. Throws when a value cannot
    /// be read; the entity is then decoded the general way, which reports it. Runs after every
    /// typed decode, so the case of nothing to check must cost next to nothing. A source whose
    /// values were all read already (from a stored item) checks nothing.
    ///
    /// ```swift
    /// try rowSource.checkUnread(plan.attributeMask ?? 0, for: plan)
    /// ```
    func checkUnread(_ read: UInt64, for plan: EntityPlan) throws
}

/// Reads the attribute slots of one plan from the row its source is at.
///
/// ```swift
/// let columns = rowSource.columns(for: plan)
/// let title = plan.attributeSlots.first.flatMap { columns.string(atSlot: $0) }
/// ```
public protocol EntityRowColumns: AnyObject {
    /// The value of the attribute in `slot` (not the identifier's slot) in the source's current
    /// row; `.null` when the row has none.
    ///
    /// ```swift
    /// let value = try columns.value(atSlot: 1)
    /// ```
    func value(atSlot slot: Int) throws -> Value

    /// The string in attribute `slot` of the current row, read straight from storage when the
    /// engine holds it as exactly that; `nil` for anything else (no value, another kind, a value
    /// that needs converting), which the decoder then reads through ``value(atSlot:)``.
    ///
    /// These shortcuts spare a `Value` per attribute on the typed read path. An engine that
    /// gives one must give exactly what ``value(atSlot:)`` gives, as that kind. The defaults
    /// give `nil`.
    ///
    /// ```swift
    /// let title = columns.string(atSlot: 1)
    /// ```
    func string(atSlot slot: Int) -> String?
    /// The integer in attribute `slot`, as ``string(atSlot:)`` reads a string.
    ///
    /// ```swift
    /// let rating = columns.integer(atSlot: 2)
    /// ```
    func integer(atSlot slot: Int) -> Int64?
    /// The double in attribute `slot`, as ``string(atSlot:)`` reads a string.
    ///
    /// ```swift
    /// let price = columns.double(atSlot: 3)
    /// ```
    func double(atSlot slot: Int) -> Double?
    /// The bool in attribute `slot`, as ``string(atSlot:)`` reads a string.
    ///
    /// ```swift
    /// let done = columns.bool(atSlot: 4)
    /// ```
    func bool(atSlot slot: Int) -> Bool?
    /// The date in attribute `slot`, as ``string(atSlot:)`` reads a string.
    ///
    /// ```swift
    /// let due = columns.date(atSlot: 5)
    /// ```
    func date(atSlot slot: Int) -> Date?
}

/// Columns without shortcuts: every attribute is read through ``EntityRowColumns/value(atSlot:)``.
extension EntityRowColumns {
    /// `nil`: read through ``value(atSlot:)``.
    public func string(atSlot slot: Int) -> String? { nil }
    /// `nil`: read through ``value(atSlot:)``.
    public func integer(atSlot slot: Int) -> Int64? { nil }
    /// `nil`: read through ``value(atSlot:)``.
    public func double(atSlot slot: Int) -> Double? { nil }
    /// `nil`: read through ``value(atSlot:)``.
    public func bool(atSlot slot: Int) -> Bool? { nil }
    /// `nil`: read through ``value(atSlot:)``.
    public func date(atSlot slot: Int) -> Date? { nil }
}

/// Writes the rows of one entity type within one write block.
///
/// Each operation has the semantics of the ``StoreWriter`` operation of the same name applied to
/// `row.item()`, including its errors.
///
/// ```swift
/// let sink = writer.entityRowWriting?.entityRowSink(forType: "Note")
/// ```
public protocol EntityRowSink: AnyObject {
    /// Adds the row's item, which must not be stored yet.
    ///
    /// ```swift
    /// try rowSink.insert(entityRow)
    /// ```
    func insert(_ row: EntityRow) throws
    /// Adds the row's item, or replaces the stored item with the same identifier.
    ///
    /// ```swift
    /// try rowSink.save(entityRow)
    /// ```
    func save(_ row: EntityRow) throws
    /// Replaces the stored item with the same identifier; `false` (and nothing written) when
    /// there is none.
    ///
    /// ```swift
    /// let existed = try rowSink.update(entityRow)
    /// ```
    func update(_ row: EntityRow) throws -> Bool
}

/// A writer that writes typed entities as rows laid out by an ``EntityPlan`` instead of as items:
/// the typed fast path of ``DataStoreReadWriteAccessor/insert(_:)-(E)``,
/// ``DataStoreReadWriteAccessor/update(_:)`` and ``DataStoreReadWriteAccessor/save(_:)-(E)``.
///
/// A writer opts in by conforming: ``StoreWriter/entityRowWriting`` then answers the writer itself.
/// A writer may take only the rows it can bind to its statements and pass the others to the
/// general path (`writer.insert(row.item())` and the like).
///
/// ```swift
/// extension MyWriter: EntityRowWriting {
///     func entityRowSink(forType itemType: String) -> any EntityRowSink { … }
/// }
/// ```
public protocol EntityRowWriting: EntityRowReading {
    /// A sink for rows of `itemType`, kept for the rest of the write block.
    ///
    /// ```swift
    /// let sink = writer.entityRowWriting?.entityRowSink(forType: "Note")
    /// ```
    func entityRowSink(forType itemType: String) -> any EntityRowSink
}

extension EntityRowWriting where Self: StoreWriter {
    /// The writer itself: conforming to ``EntityRowWriting`` is opting in.
    public var entityRowWriting: (any EntityRowWriting)? { self }
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
