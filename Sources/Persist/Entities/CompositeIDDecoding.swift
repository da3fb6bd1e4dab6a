import Foundation

/// How a struct identifier decodes from an ``ItemID/composite(_:)``'s components: each key its
/// `init(from:)` asks for takes the next component, so that the struct's field names need not
/// match anything stored (an adopted table's key columns have names of their own).
///
/// ```swift
/// let id = try CompositeIDDecoding.unbox([1, 3402], as: LineID.self, codingPath: [])
/// ```
enum CompositeIDDecoding {
    /// A `T` from the components of a composite identifier.
    ///
    /// - Throws: `DecodingError` when a component does not fit its field, or when `T` reads more
    ///   or fewer fields than there are components.
    static func unbox<T: Decodable>(_ components: [Value], as type: T.Type, codingPath: [any CodingKey]) throws -> T {
        let cursor = CompositeIDCursor(components: components)
        let decoded = try T(from: CompositeIDDecoder(cursor: cursor, codingPath: codingPath))
        guard cursor.names.count == components.count else {
            throw DecodingError.typeMismatch(type, DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "the identifier has \(components.count) components; \(type) reads \(cursor.names.count)"))
        }
        return decoded
    }
}

/// Which component each key asked for took, in the order asked.
final class CompositeIDCursor {
    let components: [Value]
    private(set) var names: [String] = []

    init(components: [Value]) {
        self.components = components
    }

    /// The component of `name`: the one it took before, else the next one not taken; `nil` when
    /// every component is taken by other keys.
    func component(for name: String) -> Value? {
        if let index = names.firstIndex(of: name) { return components[index] }
        guard names.count < components.count else { return nil }
        names.append(name)
        return components[names.count - 1]
    }

    /// Whether `name` has a component or can still take one.
    func hasComponent(for name: String) -> Bool {
        names.contains(name) || names.count < components.count
    }

    /// Marks every component as read (by an unkeyed container, which reads them in order).
    func takeAll() {
        while names.count < components.count { names.append("[\(names.count)]") }
    }
}

/// The `Decoder` handed to a struct identifier's `init(from:)`.
struct CompositeIDDecoder: Decoder {
    let cursor: CompositeIDCursor
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(CompositeIDDecodingContainer<Key>(cursor: cursor, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        cursor.takeAll()
        return ValueUnkeyedDecodingContainer(array: cursor.components, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        CompositeIDSingleDecodingContainer(decoder: self)
    }
}

/// The keyed container over a composite identifier's components (see ``CompositeIDCursor``).
struct CompositeIDDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let cursor: CompositeIDCursor
    let codingPath: [any CodingKey]

    /// The keys that took a component so far: the names are not stored, only the order.
    var allKeys: [Key] { cursor.names.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { cursor.hasComponent(for: key.stringValue) }

    private func value(_ key: Key) throws -> Value {
        guard let value = cursor.component(for: key.stringValue) else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "the identifier has only \(cursor.components.count) components"))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { !cursor.hasComponent(for: key.stringValue) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try ValueScalars.bool(value(key), codingPath + [key]) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try ValueScalars.string(value(key), codingPath + [key]) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try ValueScalars.double(value(key), codingPath + [key]) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try ValueScalars.float(value(key), codingPath + [key]) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, key) }

    private func integer<I: FixedWidthInteger>(_ type: I.Type, _ key: Key) throws -> I {
        try ValueScalars.integer(value(key), type, codingPath + [key])
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard let found = cursor.component(for: key.stringValue) else {
            return try ValueDecodingState.absent(type, key, codingPath: codingPath)
        }
        return try ValueDecodingState.unbox(found, as: type, codingPath: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecodingState(value: value(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecodingState(value: value(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecodingState(value: .null, codingPath: codingPath + [ValueCodingKey(stringValue: "super")])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecodingState(value: try value(key), codingPath: codingPath + [key])
    }
}

/// The single-value container of a ``CompositeIDDecoder``: a wrapper around the identifier struct
/// decodes the struct from the same components; a lone scalar does not fit.
struct CompositeIDSingleDecodingContainer: SingleValueDecodingContainer {
    let decoder: CompositeIDDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    private func mismatch(_ type: Any.Type) -> DecodingError {
        DecodingError.typeMismatch(type, DecodingError.Context(
            codingPath: codingPath,
            debugDescription: "expected \(type), found a composite identifier of \(decoder.cursor.components.count) components"))
    }

    func decodeNil() -> Bool { false }
    func decode(_ type: Bool.Type) throws -> Bool { throw mismatch(type) }
    func decode(_ type: String.Type) throws -> String { throw mismatch(type) }
    func decode(_ type: Double.Type) throws -> Double { throw mismatch(type) }
    func decode(_ type: Float.Type) throws -> Float { throw mismatch(type) }
    func decode(_ type: Int.Type) throws -> Int { throw mismatch(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { throw mismatch(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { throw mismatch(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { throw mismatch(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { throw mismatch(type) }
    func decode(_ type: UInt.Type) throws -> UInt { throw mismatch(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { throw mismatch(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { throw mismatch(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { throw mismatch(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { throw mismatch(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: decoder) }
}
