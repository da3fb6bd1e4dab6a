/// A writer that keeps the integer identifiers of some item types in key columns with rules of
/// their own: a sequence that other connections take from at the same time (a PostgreSQL
/// `serial` or identity key), or a range narrower than `Int64` (an `integer` column).
///
/// The accessor normally asks the writer for a type's next identifier once per block and counts
/// up from it, since no other writer can insert before the block commits. A legacy `INSERT` that
/// lets a sequenced key default does not wait for the block, though: it takes the sequence's next
/// value, which may be the one the block would count up to. For these types the accessor asks
/// the writer for every identifier. Counting up (or staying above identifiers handed out before)
/// may also leave the column's range, which the writer then refuses.
///
/// ```swift
/// extension MyWriter: IntegerKeyColumns {
///     func takesEachIntegerIDFromSequence(ofType itemType: String) -> Bool {
///         tables[itemType]?.keyHasSequence ?? false
///     }
///     func checkGeneratedIntegerID(_ id: Int64, ofType itemType: String) throws {
///         if id > Int64(Int32.max) { throw DataStoreError(.unsupported, "no next identifier") }
///     }
/// }
/// ```
package protocol IntegerKeyColumns {
    /// Whether each identifier of `itemType` must be asked of the writer, not counted up from the
    /// block's first. Only called inside the write transaction; must not touch the server.
    func takesEachIntegerIDFromSequence(ofType itemType: String) -> Bool

    /// Throws ``DataStoreError/Code/unsupported`` when the type's key cannot hold the generated
    /// identifier `id`. Must not touch the server.
    func checkGeneratedIntegerID(_ id: Int64, ofType itemType: String) throws
}
