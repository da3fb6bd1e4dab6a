/// Where a connection is with respect to transactions (`PQtransactionStatus`).
package enum PGTransactionStatus: Sendable, Equatable {
    /// No transaction is open.
    case idle
    /// A command is running.
    case active
    /// A transaction is open and usable.
    case inTransaction
    /// A transaction is open but a statement in it failed: only ROLLBACK works.
    case inFailedTransaction
    /// The connection is closed or broken.
    case unknown
}
