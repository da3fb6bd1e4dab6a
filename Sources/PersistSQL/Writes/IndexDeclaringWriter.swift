import Persist

/// What a writer of an SQL store supplies to declare indexes the one way both stores do: an index
/// an existing one satisfies is not declared again; one over a name no attribute of the table can
/// have is refused; otherwise the declaration is recorded and the index built where its table and
/// columns exist, and a unique index over items that already share values is refused naming them,
/// with nothing declared.
///
/// ```swift
/// extension MyWriter: IndexDeclaringWriter {
///     func ensureIndex(_ index: DataStoreIndex) throws -> Bool? { try declareIndex(index) }
/// }
/// ```
package protocol IndexDeclaringWriter: StoreWriter {
    /// The store's location, for messages.
    var location: String { get }

    /// Throws when the block may not go on (its transaction was rolled back or aborted).
    func checkTransaction() throws

    /// Why `index` cannot be declared on its table (an attribute that names the key or a generated
    /// column, a column the engine cannot index as Persist compares), as the error to throw; `nil`
    /// when it can.
    func refusal(of index: DataStoreIndex) throws -> DataStoreError?

    /// Records the declaration of `index` and creates it where its table and columns exist, all or
    /// nothing; returns the index's name. Throws the engine's error when a unique index meets
    /// values that items already share (see ``isSharedValues(_:)``).
    func declare(_ index: DataStoreIndex) throws -> String

    /// Whether `error`, thrown by ``declare(_:)``, says that items already share the values of a
    /// unique index. The default is its code being `uniqueViolation`.
    func isSharedValues(_ error: DataStoreError) -> Bool

    /// Records a schema change for the log written once the block commits.
    func noteSchemaChange(_ change: String)
}

extension IndexDeclaringWriter {
    package func isSharedValues(_ error: DataStoreError) -> Bool {
        error.code == .uniqueViolation
    }

    /// Declares `index`: `true` when it was declared, `false` when an index already satisfied it.
    package func declareIndex(_ index: DataStoreIndex) throws -> Bool {
        try checkTransaction()
        if try indexes(ofType: index.itemType)?.contains(where: { $0.satisfies(attributes: index.attributes,
                                                                               unique: index.isUnique) }) == true {
            return false
        }
        if let refusal = try refusal(of: index) { throw refusal }
        let name: String
        do {
            name = try declare(index)
        } catch let error as DataStoreError where isSharedValues(error) {
            let shared = try UniqueIndexes.duplicates(for: index, in: self) ?? []
            throw UniqueIndexes.reported(UniqueIndexes.existingDuplicates(index, shared), by: error, at: location)
        }
        noteSchemaChange("declared the \(index) as \(String(reflecting: name))")
        return true
    }
}
