/// A Codable model stored as items of one item type.
///
/// The model's `id` becomes the item's identifier and every other property becomes an attribute.
/// The identifier must encode as a string, an integer or bytes (`String`, `Int`, `Int64`, `UUID`,
/// `Data` all work), or as a struct of two or more such fields, which is stored as an
/// ``ItemID/composite(_:)`` identifier: its components are the fields' values in the order the
/// struct's `Codable` conformance encodes them (declaration order for a synthesized one), and
/// decode back in the order its `init(from:)` asks for them, so the field names need not match the
/// key columns of an adopted table. Nested structs, arrays, optionals, enums with raw values,
/// `Date`, `Data` and `Decimal` all round-trip through every store. A `Decimal` is stored as an
/// exact ``Value/decimal(_:)``, which requests compare and sort as a number; values stored by
/// earlier versions (a double, an integer, decimal text, Foundation's object of fields) still
/// decode.
///
/// ```swift
/// struct LineID: Codable, Hashable, Sendable { var playlistId: Int64; var trackId: Int64 }
/// struct PlaylistLine: DataStoreEntity {
///     static let itemType = "PlaylistTrack"
///     var id: LineID          // stored as .composite([.int(playlistId), .int(trackId)])
///     var position: Int
/// }
/// ```
///
/// ```swift
/// struct Restaurant: DataStoreEntity {
///     static let itemType = "Restaurant"
///     var id: String
///     var name: String
///     var rating: Int
///     var address: Address?
/// }
///
/// try store.writeSync { accessor in
///     try accessor.insert(Restaurant(id: "r1", name: "Pizza Place", rating: 4, address: nil))
/// }
/// let all = try store.read { accessor in try accessor.getAll(Restaurant.self) }
/// ```
///
/// Writing an entity replaces the whole item: attributes the model does not encode (including
/// `nil` optionals) are removed.
///
/// A `UUID` identifier is stored as its `uuidString`, in upper case, and ``DataStoreReadAccessor/getById(_:id:)``,
/// `update`, `save` and `deleteById` name the item by that spelling. Rows of an adopted table
/// keyed by UUID text in lower case (as many other languages write it) decode into such a model,
/// but are not found by identifier, and `save` would add a second row under the upper-case
/// spelling: declare the identifier of such a model as `String`, which keeps the stored spelling.
/// (A key column of an SQL `uuid` type compares UUIDs, not spellings, and is not affected.)
public protocol DataStoreEntity: Codable, Sendable, Identifiable where ID: Codable & Sendable {
    /// The item type the model is stored as.
    static var itemType: String { get }
    /// The coding key of the identifier property; `"id"` unless a model says otherwise.
    static var idKey: String { get }
}

extension DataStoreEntity {
    /// The coding key of the identifier: `"id"`.
    public static var idKey: String { "id" }

    /// The identifier an entity with identifier `id` is stored under.
    ///
    /// ```swift
    /// try PlaylistLine.itemID(for: LineID(playlistId: 1, trackId: 3402))   // .composite([.int(1), .int(3402)])
    /// ```
    ///
    /// - Throws: ``DataStoreError/Code/typeMismatch`` when the identifier does not encode as a
    ///   string, an integer or bytes, nor as a struct of two or more fields that each do.
    public static func itemID(for id: ID) throws -> ItemID {
        let value: Value
        do {
            value = try ValueEncoder().encode(id)
        } catch {
            throw DataStoreError(.typeMismatch, "the identifier of \(Self.self) cannot be stored: \(EntityErrors.describe(error))")
        }
        if let itemID = ItemID(value) { return itemID }
        if case .object = value { return try CompositeIDEncoding.itemID(of: id, owner: "\(Self.self)") }
        throw DataStoreError(
            .typeMismatch,
            "the identifier of \(Self.self) encodes as \(value.kind.withArticle) value; it must encode as a string, an integer,"
                + " bytes, or a struct of two or more fields that each do")
    }

    /// The entity as an item.
    ///
    /// ```swift
    /// let item = try restaurant.makeItem()   // Item(itemType: "Restaurant", id: "r1", ...)
    /// ```
    public func makeItem() throws -> Item {
        let encoded: Value
        do {
            encoded = try ValueEncoder().encode(self)
        } catch {
            throw DataStoreError(.typeMismatch, "\(Self.self) cannot be stored: \(EntityErrors.describe(error))")
        }
        let kind = encoded.kind
        // Consuming the value leaves the dictionary uniquely referenced, so removing the
        // identifier below does not copy it.
        guard case .object(var attributes) = consume encoded else {
            throw DataStoreError(.typeMismatch, "\(Self.self) encodes as \(kind.withArticle) value; an entity must encode as an object")
        }
        // The identifier was encoded with the rest; encode it apart only if the model left it out.
        let encodedID = attributes.removeValue(forKey: Self.idKey).flatMap { ItemID($0) }
        return Item(itemType: Self.itemType, id: try encodedID ?? Self.itemID(for: id), attributes: attributes)
    }

    /// Decodes an entity from an item.
    ///
    /// - Throws: ``DataStoreError/Code/typeMismatch`` naming the item and the coding path that does
    ///   not fit the model.
    public init(item: Item) throws {
        var attributes = item.attributes
        attributes[Self.idKey] = item.id.value
        do {
            self = try ValueDecoder().decode(Self.self, from: .object(attributes), identifierKey: Self.idKey)
        } catch {
            throw DataStoreError(
                .typeMismatch, "the item \(item.reference) cannot be read as \(Self.self): \(EntityErrors.describe(error))",
                items: [item.reference])
        }
    }
}

enum EntityErrors {
    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
            DecodingError.dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        case DecodingError.keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): missing"
        case EncodingError.invalidValue(_, let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        default:
            return String(describing: error)
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.isEmpty ? "(top level)" : codingPath.map(component).joined(separator: ".")
    }

    /// A position in an array as `[n]`, every other key by its name: the coding keys of a model
    /// whose `CodingKeys` have `Int` raw values, and a dictionary's keys that read as numbers,
    /// have an `intValue` too, but name an attribute or a key.
    private static func component(_ key: any CodingKey) -> String {
        if let position = key as? ValueCodingKey, let index = position.intValue { return "[\(index)]" }
        return key.stringValue
    }
}

extension DataStoreRequest {
    /// A request for every item of an entity's item type.
    ///
    /// ```swift
    /// var request = DataStoreRequest(itemType: Restaurant.self)
    /// request.filter = .attribute("rating") >= 4
    /// ```
    public init<E: DataStoreEntity>(itemType: E.Type) {
        self.init(itemType: E.itemType)
    }
}
