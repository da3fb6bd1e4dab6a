/// A declared index of an item type: the attributes it covers, in order, and whether it is unique.
///
/// ``DataStoreReadWriteAccessor/ensureIndex(ofType:on:unique:)`` declares one, and
/// ``DataStore/indexes(ofType:)`` lists them, including the indexes and UNIQUE constraints an
/// adopted database already had. A unique index refuses a write that would give two items
/// of its type equal values for all of its attributes (<doc:Indexes>).
///
/// ```swift
/// try store.writeSync { accessor in
///     try accessor.ensureIndex(ofType: "User", on: ["email"], unique: true)
/// }
/// for index in try store.indexes(ofType: "User") {
///     print(index.attributes, index.isUnique)   // ["email"] true
/// }
/// ```
public struct DataStoreIndex: Sendable, Hashable, CustomStringConvertible {
    /// The item type the index belongs to.
    public var itemType: String
    /// The attributes the index covers, most significant first.
    public var attributes: [String]
    /// Whether no two items of the type may hold equal values for all of ``attributes``.
    public var isUnique: Bool
    /// The engine's own name for the index (an SQL index name), or `nil` where the store gives
    /// it none.
    public var name: String?

    /// Describes an index.
    ///
    /// ```swift
    /// let index = DataStoreIndex(itemType: "User", attributes: ["email"], isUnique: true)
    /// ```
    public init(itemType: String, attributes: [String], isUnique: Bool, name: String? = nil) {
        self.itemType = itemType
        self.attributes = attributes
        self.isUnique = isUnique
        self.name = name
    }

    /// Whether this index makes a declaration of `attributes` (in that order) with `unique`
    /// redundant: same attributes (names compared as Swift strings, as an item's attributes are
    /// keyed), and unique when uniqueness is asked for.
    ///
    /// ```swift
    /// let unique = DataStoreIndex(itemType: "User", attributes: ["email"], isUnique: true)
    /// assert(unique.satisfies(attributes: ["email"], unique: false))
    /// ```
    public func satisfies(attributes wanted: [String], unique: Bool) -> Bool {
        attributes.count == wanted.count && zip(attributes, wanted).allSatisfy { $0 == $1 }
            && (isUnique || !unique)
    }

    /// A readable rendering, for messages and logs: `unique index on User(email)`.
    public var description: String {
        "\(isUnique ? "unique index" : "index") on \(itemType)(\(attributes.joined(separator: ", ")))"
    }
}
