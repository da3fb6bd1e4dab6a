/// An order-independent checksum of a set of items: the count and the wrapping sum of each item's
/// 128-bit digest of its canonical encoding (the one that decides whether two items are equal).
///
/// Two collections holding the same items, in any order, have equal checksums.
///
/// ```swift
/// var checksum = ItemChecksum()
/// checksum.add(item)
/// print(checksum)   // 1 item(s), 3f2a…
/// ```
public struct ItemChecksum: Sendable, Hashable, CustomStringConvertible {
    /// How many items were added.
    public private(set) var count = 0
    private var high: UInt64 = 0
    private var low: UInt64 = 0
    private var scratch: [UInt8] = []

    /// An empty checksum.
    public init() {}

    /// Adds one item.
    public mutating func add(_ item: Item) {
        add(ItemDigest(item, scratch: &scratch))
    }

    /// Adds one row: the same as adding its item.
    package mutating func add(_ row: ItemRow) {
        add(ItemDigest(row, scratch: &scratch))
    }

    /// Adds one row as if its identifier were `0`: for items whose identifiers only tell rows apart
    /// (see ``CarriedSchema/identifiersAreRowLocators``), which a copy may renumber.
    package mutating func addIgnoringIdentifier(_ row: ItemRow) {
        add(ItemDigest(ItemRow(itemType: row.itemType, id: .int(0), names: row.names, values: row.values), scratch: &scratch))
    }

    private mutating func add(_ digest: ItemDigest) {
        let (sumLow, carry) = low.addingReportingOverflow(digest.low)
        low = sumLow
        high = high &+ digest.high &+ (carry ? 1 : 0)
        count += 1
    }

    /// Takes out what `other` added: the checksum of the items in this one and not in `other`,
    /// when `other`'s items are among them.
    mutating func subtract(_ other: ItemChecksum) {
        let (difference, borrow) = low.subtractingReportingOverflow(other.low)
        low = difference
        high = high &- other.high &- (borrow ? 1 : 0)
        count -= other.count
    }

    /// The 128-bit sum as 32 hexadecimal digits.
    public var hex: String {
        let digits = String(high, radix: 16).leftPadded(16) + String(low, radix: 16).leftPadded(16)
        return digits
    }

    /// A readable rendering, for messages and logs.
    public var description: String { "\(count) item(s), \(hex)" }

    /// Whether two checksums cover the same items.
    public static func == (lhs: ItemChecksum, rhs: ItemChecksum) -> Bool {
        lhs.count == rhs.count && lhs.high == rhs.high && lhs.low == rhs.low
    }

    /// Hashes the same data that `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        hasher.combine(high)
        hasher.combine(low)
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
