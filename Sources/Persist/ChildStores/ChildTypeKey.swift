/// An item type as a child store keys its changes: compared as its parent compares type names, as
/// Swift strings or (GDBM) by their UTF-8 bytes (see ``TypeNameComparing``).
///
/// Every key of one child compares the same way, since a child has one parent.
struct ChildTypeKey: Hashable, Sendable {
    /// The type's name as the change that made the key spelled it.
    let name: String
    /// Whether the parent compares type names by their bytes.
    let byBytes: Bool

    static func == (lhs: ChildTypeKey, rhs: ChildTypeKey) -> Bool {
        lhs.byBytes || rhs.byBytes ? lhs.name.utf8.elementsEqual(rhs.name.utf8) : lhs.name == rhs.name
    }

    func hash(into hasher: inout Hasher) {
        guard byBytes else {
            hasher.combine(name)
            return
        }
        hasher.combine(name.utf8.count)
        for byte in name.utf8 { hasher.combine(byte) }
    }
}
