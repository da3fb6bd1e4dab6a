/// The integer identifiers handed out by a store and every child store made from it, and those its
/// children hold items under, by item type, so that a child's items and its parent's generated
/// ones never meet when the child is merged.
///
/// One object is shared by a store and all its descendants; identifiers from blocks that rolled
/// back stay taken (there is no harm in a gap).
package final class IDReservations: Sendable {
    private let highest = Locked<[String: Int64]>([:])

    package init() {}

    /// Takes the first identifier that is at least `candidate` and above every one taken before
    /// for `itemType`.
    ///
    /// - Throws: ``DataStoreError/Code/unsupported`` when no integer is left above them.
    package func take(atLeast candidate: Int64, ofType itemType: String) throws -> Int64 {
        try highest.withLock { highest in
            var chosen = candidate
            if let taken = highest[itemType], taken >= chosen {
                chosen = try IntegerIDs.after(taken, itemType: itemType)
            }
            highest[itemType] = chosen
            return chosen
        }
    }

    /// Records that a child store holds an item under the integer identifier `id`, chosen by the
    /// app rather than generated, so that no store of the family hands it out while the child
    /// holds it (the merge would find the two items one).
    package func note(_ id: Int64, ofType itemType: String) {
        highest.withLock { $0[itemType] = max($0[itemType] ?? id, id) }
    }
}
