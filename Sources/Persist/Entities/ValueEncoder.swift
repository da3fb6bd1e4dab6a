import Foundation

/// Encodes any `Encodable` value as a ``Value``: structs and dictionaries become objects, arrays
/// become arrays, `Date` becomes `.date`, `Data` becomes `.bytes`, `URL` becomes its string,
/// `Decimal` becomes an exact `.decimal`, and enums with raw values become their raw value.
/// Optionals that are `nil` are left out.
///
/// ```swift
/// struct Address: Codable { var street: String; var city: String }
/// let value = try ValueEncoder().encode(Address(street: "1 High St", city: "Leeds"))
/// // .object(["street": "1 High St", "city": "Leeds"])
/// ```
public struct ValueEncoder: Sendable {
    /// Makes an encoder.
    public init() {}

    /// Encodes `value`.
    ///
    /// - Throws: `EncodingError.invalidValue` for an unsigned integer above `Int64.max`.
    public func encode<T: Encodable>(_ value: T) throws -> Value {
        try EncodingNode.box(value, codingPath: []).resolve()
    }
}

/// A value being built by the encoder: a finished value, or a container still being filled.
enum EncodingNode {
    case value(Value)
    case object(ObjectBox)
    case array(ArrayBox)
    case deferred(ValueEncodingState)

    /// An object being filled: finished values go straight into `values` (no second pass over
    /// them); only containers still being filled wait in `pending`.
    final class ObjectBox {
        private(set) var values: [String: Value]
        private var pending: [String: EncodingNode] = [:]

        init() {
            values = Dictionary(minimumCapacity: 8)
        }

        func set(_ value: Value, for key: String) {
            values[key] = value
            if !pending.isEmpty { pending[key] = nil }
        }

        func set(_ node: EncodingNode, for key: String) {
            if case .value(let value) = node {
                set(value, for: key)
            } else {
                pending[key] = node
                values[key] = nil
            }
        }

        /// The finished object. The box gives its dictionary away (it is done with), so that the
        /// caller holds the only reference and can change it without a copy.
        func resolve() -> [String: Value] {
            var resolved = values
            values = [:]
            for (key, node) in pending { resolved[key] = node.resolve() }
            return resolved
        }
    }

    final class ArrayBox {
        var elements: [EncodingNode] = []
    }

    func resolve() -> Value {
        switch self {
        case .value(let value): value
        case .object(let box): .object(box.resolve())
        case .array(let box): .array(box.elements.map { $0.resolve() })
        case .deferred(let encoder): encoder.node?.resolve() ?? .object([:])
        }
    }

    static func box<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> EncodingNode {
        if let special = special(value) { return .value(special) }
        let encoder = ValueEncodingState(codingPath: codingPath)
        try value.encode(to: encoder)
        return encoder.node ?? .object(ObjectBox())
    }

    /// The value of a `Date`, `Data`, `URL` or `Decimal`, which the encoder stores as themselves rather than
    /// as whatever their own `Encodable` conformances write; `nil` for any other type.
    @inline(__always)
    static func special<T: Encodable>(_ value: T) -> Value? {
        // The metadata comparisons make the casts exact, so no dynamic cast (and its boxing) is needed.
        if T.self == Date.self { return .date(unsafeBitCast(value, to: Date.self)) }
        if T.self == Data.self { return .bytes([UInt8](unsafeBitCast(value, to: Data.self))) }
        if T.self == URL.self { return .string(unsafeBitCast(value, to: URL.self).absoluteString) }
        if T.self == Decimal.self { return DecimalValues.value(of: unsafeBitCast(value, to: Decimal.self)) }
        return nil
    }

    static func integer<I: BinaryInteger>(_ value: I, codingPath: [any CodingKey]) throws -> EncodingNode {
        guard let converted = Int64(exactly: value) else {
            throw EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: codingPath, debugDescription: "\(value) does not fit in a 64-bit signed integer"))
        }
        return .value(.int(converted))
    }
}

/// The `Encoder` handed to `encode(to:)`.
final class ValueEncodingState: Encoder {
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any] = [:]
    var node: EncodingNode?

    init(codingPath: [any CodingKey]) {
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let box: EncodingNode.ObjectBox
        if case .object(let existing) = node {
            box = existing
        } else {
            box = EncodingNode.ObjectBox()
            node = .object(box)
        }
        return KeyedEncodingContainer(ValueKeyedEncodingContainer<Key>(box: box, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let box: EncodingNode.ArrayBox
        if case .array(let existing) = node {
            box = existing
        } else {
            box = EncodingNode.ArrayBox()
            node = .array(box)
        }
        return ValueUnkeyedEncodingContainer(box: box, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        ValueSingleEncodingContainer(encoder: self)
    }
}

/// A keyed encoding container that stores each scalar as a ``Value``: the conversions every
/// keyed container of the encoders shares (`nil` as `.null`, every integer that fits as `.int`,
/// floats as `.double`).
protocol ValueSettingContainer: KeyedEncodingContainerProtocol {
    /// Stores `value` under `key`.
    func set(_ value: Value, _ key: Key)
}

extension ValueSettingContainer {
    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(.double(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(.double(Double(value)), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.int(Int64(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(.int(Int64(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(.int(Int64(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(.int(Int64(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(.int(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.int(Int64(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.int(Int64(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.int(Int64(value)), key) }
}

struct ValueKeyedEncodingContainer<Key: CodingKey>: ValueSettingContainer {
    let box: EncodingNode.ObjectBox
    let codingPath: [any CodingKey]

    func set(_ value: Value, _ key: Key) { box.set(value, for: key.stringValue) }

    mutating func encode(_ value: UInt, forKey key: Key) throws {
        box.set(try EncodingNode.integer(value, codingPath: codingPath + [key]), for: key.stringValue)
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        box.set(try EncodingNode.integer(value, codingPath: codingPath + [key]), for: key.stringValue)
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        box.set(try EncodingNode.box(value, codingPath: codingPath + [key]), for: key.stringValue)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = EncodingNode.ObjectBox()
        box.set(.object(nested), for: key.stringValue)
        return KeyedEncodingContainer(ValueKeyedEncodingContainer<NestedKey>(box: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = EncodingNode.ArrayBox()
        box.set(.array(nested), for: key.stringValue)
        return ValueUnkeyedEncodingContainer(box: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(named: "super")
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(named: key.stringValue)
    }

    private func superEncoder(named name: String) -> any Encoder {
        let encoder = ValueEncodingState(codingPath: codingPath + [ValueCodingKey(stringValue: name)])
        box.set(.deferred(encoder), for: name)
        return encoder
    }
}

struct ValueUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let box: EncodingNode.ArrayBox
    let codingPath: [any CodingKey]
    var count: Int { box.elements.count }

    private var nextKey: any CodingKey { ValueCodingKey(intValue: box.elements.count) }
    private func append(_ value: Value) { box.elements.append(.value(value)) }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(.double(value)) }
    mutating func encode(_ value: Float) throws { append(.double(Double(value))) }
    mutating func encode(_ value: Int) throws { append(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws { append(.int(Int64(value))) }
    mutating func encode(_ value: Int16) throws { append(.int(Int64(value))) }
    mutating func encode(_ value: Int32) throws { append(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { append(.int(value)) }
    mutating func encode(_ value: UInt8) throws { append(.int(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { append(.int(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { append(.int(Int64(value))) }
    mutating func encode(_ value: UInt) throws {
        box.elements.append(try EncodingNode.integer(value, codingPath: codingPath + [nextKey]))
    }
    mutating func encode(_ value: UInt64) throws {
        box.elements.append(try EncodingNode.integer(value, codingPath: codingPath + [nextKey]))
    }
    mutating func encode<T: Encodable>(_ value: T) throws {
        box.elements.append(try EncodingNode.box(value, codingPath: codingPath + [nextKey]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let key = nextKey
        let nested = EncodingNode.ObjectBox()
        box.elements.append(.object(nested))
        return KeyedEncodingContainer(ValueKeyedEncodingContainer<NestedKey>(box: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let key = nextKey
        let nested = EncodingNode.ArrayBox()
        box.elements.append(.array(nested))
        return ValueUnkeyedEncodingContainer(box: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        let encoder = ValueEncodingState(codingPath: codingPath + [nextKey])
        box.elements.append(.deferred(encoder))
        return encoder
    }
}

struct ValueSingleEncodingContainer: SingleValueEncodingContainer {
    let encoder: ValueEncodingState
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ value: Value) { encoder.node = .value(value) }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(.double(value)) }
    mutating func encode(_ value: Float) throws { set(.double(Double(value))) }
    mutating func encode(_ value: Int) throws { set(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws { set(.int(Int64(value))) }
    mutating func encode(_ value: Int16) throws { set(.int(Int64(value))) }
    mutating func encode(_ value: Int32) throws { set(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { set(.int(value)) }
    mutating func encode(_ value: UInt8) throws { set(.int(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { set(.int(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { set(.int(Int64(value))) }
    mutating func encode(_ value: UInt) throws { encoder.node = try EncodingNode.integer(value, codingPath: codingPath) }
    mutating func encode(_ value: UInt64) throws { encoder.node = try EncodingNode.integer(value, codingPath: codingPath) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        encoder.node = try EncodingNode.box(value, codingPath: codingPath)
    }
}

/// A coding key made from a string or an index.
struct ValueCodingKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}
