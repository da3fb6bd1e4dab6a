/// An item type name as a key, compared as a store compares type names: as Swift strings, or
/// by their UTF-8 bytes (see ``StoreReader/comparesTypeNamesByBytes``). A child store keys its changes by it,
/// and a write block its mutable items.
///
/// Every key of one table compares the same way, since it belongs to one store.
struct TypeNameKey: Hashable, Sendable {
    /// The type's name as the write that made the key spelled it.
    let name: String
    /// Whether the store compares type names by their bytes.
    let byBytes: Bool

    static func == (lhs: TypeNameKey, rhs: TypeNameKey) -> Bool {
        lhs.byBytes || rhs.byBytes ? lhs.name.utf8.elementsEqual(rhs.name.utf8) : lhs.name == rhs.name
    }

    func hash(into hasher: inout Hasher) {
        guard byBytes else {
            hasher.combine(name)
            return
        }
        // The bytes in one call, not one call per byte; a native string's UTF-8 is contiguous, and
        // any other is copied so that equal bytes always hash alike.
        let hashed: Void? = name.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if hashed == nil { Array(name.utf8).withUnsafeBytes { hasher.combine(bytes: $0) } }
    }
}
