import Persist

/// The error of a write block whose `COMMIT` failed on a deferred constraint (`DEFERRABLE
/// INITIALLY DEFERRED`, or deferred with `SET CONSTRAINTS`): PostgreSQL checks it only then, and
/// does not say which statement, so which item broke it is not known.
///
/// The code is the one an immediate check gives: a unique violation of the key of a table of the
/// store's schema is `alreadyExists`, of any other unique constraint `uniqueViolation`; of a
/// foreign key `referenceViolation`, naming the item referred to (see ``ReferenceFailure``); an
/// exclusion constraint or a constraint trigger's exception is `invalidArgument`.
/// The message says the violation was found at commit and names the constraint and its table,
/// with PostgreSQL's message and detail (the key values, when it gives them).
enum CommitViolation {
    /// The error for `error`, thrown by a write block's `COMMIT`, when `failure` (the server's
    /// own, the same) is a deferred constraint's violation; otherwise `error` as it is.
    static func error(_ error: DataStoreError, failure: ServerFailure?, schema: StoreSchema) -> DataStoreError {
        guard let failure, error.engineCode == failure.sqlState.engineCode,
              ["23", "P0"].contains(failure.sqlState.errorClass) else { return error }
        if let reference = ReferenceFailure(failure, schema: schema) {
            return reference.error(error, referrer: nil, said: PostgresErrors.said(failure), atCommit: true)
        }
        var code = error.code
        var advice = "Change the items the block writes so that they keep the constraint, or write them in an order "
            + "that does"
        if failure.sqlState == .uniqueViolation {
            let isKey = schema.isPrimaryKey(failure)
            code = isKey ? .alreadyExists : .uniqueViolation
            advice = isKey ? "Give the new item another identifier, or save the stored one instead"
                : "Give the items other values, or remove the item holding them first"
        }
        let table = failure.table.map { name in
            " of table " + (failure.schema.map { SQLName.qualified($0, name) } ?? SQLName.quoted(name))
        } ?? ""
        let constraint = failure.constraint.map { "the deferred constraint \(SQLName.quoted($0))\(table)" }
            ?? "a deferred constraint or constraint trigger\(table)"
        let said = PostgresErrors.said(failure)
        let location = error.path ?? "the server"
        return DataStoreError(
            code,
            "the write block was not committed to PostgreSQL at \(location): a violation of \(constraint) was found at "
                + "commit: \(said). PostgreSQL checks a deferred constraint only when the block commits, where the item "
                + "that broke it is not known; nothing of the block was stored. \(advice)",
            path: error.path, engineCode: error.engineCode, engineMessage: error.engineMessage)
    }
}
