import Foundation

/// How an entity's struct identifier (`struct LineID: Codable { var playlistId: Int64; var trackId: Int64 }`)
/// becomes an ``ItemID/composite(_:)``: its fields' values, in the order its `Codable`
/// conformance encodes them (declaration order for a synthesized one), each a string, an integer
/// or bytes.
///
/// ```swift
/// let id = try CompositeIDEncoding.itemID(of: LineID(playlistId: 1, trackId: 3402), owner: "PlaylistTrack")
/// // .composite([.int(1), .int(3402)])
/// ```
enum CompositeIDEncoding {
    /// The composite identifier of `id`, whose plain encoding is an object.
    ///
    /// - Throws: ``DataStoreError/Code/typeMismatch`` for fewer than two fields, or a field that
    ///   is not a string, an integer or bytes (a `nil`, a nested struct, a double, a date…).
    static func itemID<ID: Encodable>(of id: ID, owner: String) throws -> ItemID {
        let recorder = CompositeIDRecorder()
        do {
            try id.encode(to: recorder)
        } catch {
            throw DataStoreError(.typeMismatch, "the identifier of \(owner) cannot be stored: \(EntityErrors.describe(error))")
        }
        let fields = recorder.fields
        guard fields.count >= 2 else {
            throw DataStoreError(
                .typeMismatch,
                "the identifier of \(owner) encodes as an object of \(fields.count) field\(fields.count == 1 ? "" : "s")"
                    + " (\(fields.map(\.name).joined(separator: ", "))); a struct identifier needs two or more fields,"
                    + " each a string, an integer or bytes (use the field itself for one)")
        }
        var components: [ItemID] = []
        components.reserveCapacity(fields.count)
        for field in fields {
            guard let component = ItemID(field.value) else {
                throw DataStoreError(
                    .typeMismatch,
                    "the field \(String(reflecting: field.name)) of the identifier of \(owner) encodes as"
                        + " \(field.value.kind.withArticle) value; each field of a struct identifier must encode as a string,"
                        + " an integer or bytes")
            }
            components.append(component)
        }
        return .composite(components)
    }
}

/// The `Encoder` that records a struct identifier's fields in the order they are encoded.
final class CompositeIDRecorder: Encoder {
    let codingPath: [any CodingKey] = []
    let userInfo: [CodingUserInfoKey: Any] = [:]
    /// Each field once, where it was first encoded; a field encoded again keeps its place.
    private(set) var fields: [(name: String, value: Value)] = []

    func record(_ value: Value, for name: String) {
        if let index = fields.firstIndex(where: { $0.name == name }) {
            fields[index].value = value
        } else {
            fields.append((name, value))
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(CompositeIDEncodingContainer<Key>(recorder: self))
    }

    /// A list has no field names; it is recorded as one array field, which no component can be.
    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let box = EncodingNode.ArrayBox()
        record(.array([]), for: "[0]")
        return ValueUnkeyedEncodingContainer(box: box, codingPath: [])
    }

    /// A wrapper around the identifier struct (a tagged type) encodes the struct through it.
    func singleValueContainer() -> any SingleValueEncodingContainer {
        CompositeIDSingleContainer(recorder: self)
    }
}

/// The keyed container of a ``CompositeIDRecorder``: the usual conversions, but `nil` is recorded
/// (a component cannot be left out) and nested containers record a value no component can be.
struct CompositeIDEncodingContainer<Key: CodingKey>: ValueSettingContainer {
    let recorder: CompositeIDRecorder
    var codingPath: [any CodingKey] { [] }

    func set(_ value: Value, _ key: Key) { recorder.record(value, for: key.stringValue) }

    mutating func encode(_ value: UInt, forKey key: Key) throws {
        set(try EncodingNode.integer(value, codingPath: [key]).resolve(), key)
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        set(try EncodingNode.integer(value, codingPath: [key]).resolve(), key)
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        set(try EncodingNode.box(value, codingPath: [key]).resolve(), key)
    }

    // A `nil` field is recorded as null, which no component can be, rather than left out.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try present(value, key) }

    private mutating func present<T: Encodable>(_ value: T?, _ key: Key) throws {
        if let value { try encode(value, forKey: key) } else { set(.null, key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        set(.object([:]), key)
        return KeyedEncodingContainer(ValueKeyedEncodingContainer<NestedKey>(box: EncodingNode.ObjectBox(), codingPath: [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        set(.array([]), key)
        return ValueUnkeyedEncodingContainer(box: EncodingNode.ArrayBox(), codingPath: [key])
    }

    mutating func superEncoder() -> any Encoder {
        recorder.record(.object([:]), for: "super")
        return ValueEncodingState(codingPath: [])
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        set(.object([:]), key)
        return ValueEncodingState(codingPath: [key])
    }
}

/// The single-value container of a ``CompositeIDRecorder``: a wrapped struct records its fields;
/// a lone scalar is one field, which is too few.
struct CompositeIDSingleContainer: SingleValueEncodingContainer {
    let recorder: CompositeIDRecorder
    var codingPath: [any CodingKey] { [] }

    private func scalar(_ value: Value) { recorder.record(value, for: "value") }

    mutating func encodeNil() throws { scalar(.null) }
    mutating func encode(_ value: Bool) throws { scalar(.bool(value)) }
    mutating func encode(_ value: String) throws { scalar(.string(value)) }
    mutating func encode(_ value: Double) throws { scalar(.double(value)) }
    mutating func encode(_ value: Float) throws { scalar(.double(Double(value))) }
    mutating func encode(_ value: Int) throws { scalar(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws { scalar(.int(Int64(value))) }
    mutating func encode(_ value: Int16) throws { scalar(.int(Int64(value))) }
    mutating func encode(_ value: Int32) throws { scalar(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { scalar(.int(value)) }
    mutating func encode(_ value: UInt8) throws { scalar(.int(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { scalar(.int(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { scalar(.int(Int64(value))) }
    mutating func encode(_ value: UInt) throws { scalar(try EncodingNode.integer(value, codingPath: []).resolve()) }
    mutating func encode(_ value: UInt64) throws { scalar(try EncodingNode.integer(value, codingPath: []).resolve()) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        if let special = EncodingNode.special(value) { return scalar(special) }
        try value.encode(to: recorder)
    }
}
