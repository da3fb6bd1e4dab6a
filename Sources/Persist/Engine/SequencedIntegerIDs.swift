/// A writer whose integer identifiers of some item types come from a sequence that other
/// connections take from at the same time (a PostgreSQL `serial` or identity key).
///
/// The accessor normally asks the writer for a type's next identifier once per block and counts
/// up from it, since no other writer can insert before the block commits. A legacy `INSERT` that
/// lets such a key default does not wait for the block, though: it takes the sequence's next
/// value, which may be the one the block would count up to. For these types the accessor asks
/// the writer for every identifier.
///
/// ```swift
/// extension MyWriter: SequencedIntegerIDs {
///     func takesEachIntegerIDFromSequence(ofType itemType: String) -> Bool {
///         tables[itemType]?.keyHasSequence ?? false
///     }
/// }
/// ```
package protocol SequencedIntegerIDs {
    /// Whether each identifier of `itemType` must be asked of the writer, not counted up from the
    /// block's first. Only called inside the write transaction; must not touch the server.
    func takesEachIntegerIDFromSequence(ofType itemType: String) -> Bool
}
