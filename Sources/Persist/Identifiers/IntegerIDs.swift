/// Small rules shared by every way of generating integer identifiers.
package enum IntegerIDs {
    /// The identifier after `largest` (1 when there is none).
    ///
    /// - Throws: ``DataStoreError/Code/unsupported`` when `largest` is `Int64.max`.
    package static func after(_ largest: Int64?, itemType: String) throws -> Int64 {
        guard let largest else { return 1 }
        guard largest < .max else { throw exhausted(itemType) }
        return largest + 1
    }

    /// The error for a type whose integer identifiers reached `Int64.max`.
    package static func exhausted(_ itemType: String) -> DataStoreError {
        DataStoreError(
            .unsupported,
            "the integer identifiers of the item type \(String(reflecting: itemType)) have reached \(Int64.max) (an "
                + "item holds it, or held it before it was deleted), so no larger one is left; give new items "
                + "identifiers of your own")
    }
}
