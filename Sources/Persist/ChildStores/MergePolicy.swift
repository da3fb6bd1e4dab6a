/// How ``DataStore/merge(_:policy:)`` resolves items changed both in a child store and, since the
/// child first read them, in its parent.
///
/// ```swift
/// try store.merge(child, policy: .fail)
/// ```
public enum MergePolicy: String, Sendable, Hashable, CaseIterable {
    /// The child's version replaces the parent's (the default).
    case childWins
    /// The parent's version stays; the child's change to that item is dropped.
    case parentWins
    /// Nothing is merged; the merge throws ``DataStoreError/Code/conflict`` listing every
    /// conflicting item.
    case fail
}
