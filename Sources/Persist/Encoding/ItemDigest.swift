/// A 128-bit digest of an item's canonical encoding: equal items have equal digests, and different
/// items, for all practical purposes, different ones.
struct ItemDigest: Sendable, Hashable {
    let high: UInt64
    let low: UInt64

    init(_ item: Item) {
        var scratch: [UInt8] = []
        self.init(item, scratch: &scratch)
    }

    /// The digest of `item`, encoding it into `scratch` (emptied first, kept for reuse), so that
    /// a caller digesting many items allocates one buffer.
    init(_ item: Item, scratch: inout [UInt8]) {
        self.init(scratch: &scratch) { CanonicalItemEncoding.encode(item, into: &$0) }
    }

    /// The digest of a row: the digest of its item.
    init(_ row: ItemRow, scratch: inout [UInt8]) {
        self.init(scratch: &scratch) { CanonicalItemEncoding.encode(row, into: &$0) }
    }

    /// The digest of the bytes `encode` writes into `scratch`, emptied first.
    private init(scratch: inout [UInt8], _ encode: (inout [UInt8]) -> Void) {
        scratch.removeAll(keepingCapacity: true)
        encode(&scratch)
        var hasher = StableHasher()
        hasher.combine(bytes: scratch)
        (high, low) = hasher.finalize()
    }

    /// The digest of an optional item: `nil` for none.
    static func of(_ item: Item?) -> ItemDigest? {
        item.map(ItemDigest.init)
    }
}
