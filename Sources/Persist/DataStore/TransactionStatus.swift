/// What a write block decided: keep its changes or discard them.
///
/// A write block that returns `.rollback` discards every change it made, without an error; a block
/// that returns `.commit` (or any other value) keeps them. This is the commit/rollback status of
/// the DAO result handlers this library grew from.
///
/// ```swift
/// let status = try store.writeSync { accessor -> TransactionStatus in
///     let basket = try accessor.createItem(ofType: "Basket")
///     basket["total"] = 12.5
///     return userConfirmed ? .commit : .rollback
/// }
/// ```
public enum TransactionStatus: Sendable, Hashable {
    /// Keep the block's changes.
    case commit
    /// Discard the block's changes.
    case rollback
}
