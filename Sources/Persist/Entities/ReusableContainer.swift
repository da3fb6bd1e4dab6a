/// The top-level keyed container an entity coder handed out last, kept so that the next entity
/// coded with the same coding keys gets it again.
///
/// Making a `KeyedDecodingContainer` or `KeyedEncodingContainer` allocates the standard library's
/// box around the concrete container and looks up its generic metadata, which, done once per
/// entity, costs as much as coding an attribute. The entity coders' concrete containers hold only
/// their coder's token (see ``EntityCoderCell``), so one box serves every entity of a run.
///
/// Both container types are a single reference to their box; a container of another size is
/// never kept, so the caller's `unsafeBitCast` of the storage back to the container type it kept
/// (the same coding keys give the same type) always meets equal sizes. The storage is not generic,
/// so that finding it costs the unspecialized caller (the coder's `container(keyedBy:)`) no
/// metadata lookup beyond the one for the container it returns.
struct ReusableContainer {
    private var keyType: ObjectIdentifier?
    private var storage: AnyObject?

    /// The storage of the container kept for the coding keys `keyType`, if any.
    @inline(__always)
    func storage(keyedBy keyType: ObjectIdentifier) -> AnyObject? {
        self.keyType == keyType ? storage : nil
    }

    /// Keeps `container`, made for the coding keys `keyType`.
    mutating func keep<Container>(_ container: Container, keyedBy keyType: ObjectIdentifier) {
        guard MemoryLayout<Container>.size == MemoryLayout<AnyObject>.size else { return }
        storage = unsafeBitCast(container, to: AnyObject.self)
        self.keyType = keyType
    }
}
