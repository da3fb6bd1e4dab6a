/// How writes to a table go, chosen once when the table's schema is loaded.
///
/// ```swift
/// if table.writes == .checked { try inSavepoint { try write(); try readBack() } } else { try write() }
/// ```
package enum WriteStrategy: Sendable, Equatable {
    /// A table the store created, that nothing else changed: each write is one statement whose
    /// effect is known.
    case direct
    /// An adopted table, or one to which other SQL gave triggers, constraints or columns of its own:
    /// the table may refuse or change a write, so a write it might touch runs in a savepoint and is
    /// read back, and a refused one leaves nothing behind.
    case checked
}
