/// How ``DataStoreReadWriteAccessor/createItem(ofType:idGeneration:)`` identifies a new item.
///
/// ```swift
/// try store.writeSync { accessor in
///     let todo = try accessor.createItem(ofType: "Todo", idGeneration: .nextInteger)
///     todo["title"] = "Buy milk"
///     print(todo.id)   // .int(1) in an empty store
/// }
/// ```
///
/// See <doc:GeneratedIdentifiers> for what each store guarantees.
public enum IDGeneration: Sendable, Hashable, CaseIterable {
    /// A new UUID string, as ``ItemID/generate()`` gives.
    case uuid
    /// An `.int` identifier greater than every integer identifier of the item type at that moment,
    /// never one another writer (in this process or another) hands out too; on an adopted table
    /// with a sequence of its own (`AUTOINCREMENT`, `serial`), the one the engine itself would assign.
    case nextInteger
}
