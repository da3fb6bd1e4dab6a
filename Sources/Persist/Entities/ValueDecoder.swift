import Foundation

/// Decodes any `Decodable` value from a ``Value``, the reverse of ``ValueEncoder``.
///
/// Numbers convert only when the value is exactly representable (`.double(2)` decodes as an
/// `Int`, `.double(2.5)` does not), but for a `Float`, which reads the nearest `Float` to a double
/// within its range (a double beyond it is `typeMismatch`, not infinity); booleans also decode
/// from the integers 0 and 1, which is how many legacy SQL tables store them. A `Decimal` decodes
/// from a number, from its text, and from the object of fields Foundation's own `Codable`
/// conformance writes. Keyed containers list `allKeys` in the byte order of the keys' UTF-8, the
/// order records list attributes in, so a value decodes the same way on every read.
/// A missing key reads as null where the type asks for one (`decode(Int?.self, forKey:)`, a
/// property wrapper around an optional), since items drop null attributes; any other type gets
/// `keyNotFound`.
///
/// ```swift
/// struct Address: Codable { var street: String; var city: String }
/// let address = try ValueDecoder().decode(Address.self, from: ["street": "1 High St", "city": "Leeds"])
/// ```
public struct ValueDecoder: Sendable {
    /// Makes a decoder.
    public init() {}

    /// Decodes a `T` from `value`.
    ///
    /// - Throws: `DecodingError` naming the coding path of the first value that does not fit.
    public func decode<T: Decodable>(_ type: T.Type, from value: Value) throws -> T {
        try ValueDecodingState.unbox(value, as: type, codingPath: [])
    }

    /// Decodes a `T` from the object `value`, reading a composite identifier's components (an
    /// array) under `identifierKey` as the fields of a struct identifier (see ``CompositeIDDecoding``).
    func decode<T: Decodable>(_ type: T.Type, from value: Value, identifierKey: String) throws -> T {
        try T(from: ValueDecodingState(value: value, codingPath: [], identifierKey: identifierKey))
    }
}

/// The `Decoder` handed to `init(from:)`.
struct ValueDecodingState: Decoder {
    let value: Value
    let codingPath: [any CodingKey]
    /// The top-level key of an entity's identifier, whose composite value (an array) decodes as
    /// the fields of a struct; `nil` below the top level.
    var identifierKey: String? = nil
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    static func unbox<T: Decodable>(_ value: Value, as type: T.Type, codingPath: [any CodingKey]) throws -> T {
        if type == Date.self || type == Data.self || type == URL.self {
            let special: Any?
            switch value {
            case .date(let date) where type == Date.self: special = date
            case .bytes(let bytes) where type == Data.self: special = Data(bytes)
            case .string(let string) where type == URL.self: special = URL(string: string)
            default: special = nil
            }
            guard let result = special as? T else { throw mismatch(type, value, codingPath) }
            return result
        }
        if type == Decimal.self, let decimal = try DecimalValues.decimal(from: value, codingPath: codingPath),
           let result = decimal as? T {
            return result
        }
        return try T(from: ValueDecodingState(value: value, codingPath: codingPath))
    }

    /// A `T` for a key the object lacks. An item drops its null attributes, so a value encoded
    /// as null (a `nil` written with `encode` rather than `encodeIfPresent`, or by a property
    /// wrapper around an optional) comes back absent: a type that decodes from null gets null;
    /// any other one throws `keyNotFound`, as for any missing key.
    static func absent<T: Decodable, Key: CodingKey>(_ type: T.Type, _ key: Key, codingPath: [any CodingKey]) throws -> T {
        if let decoded = try? unbox(Value.null, as: type, codingPath: codingPath + [key]) { return decoded }
        throw DecodingError.keyNotFound(key, DecodingError.Context(
            codingPath: codingPath, debugDescription: "no value for \(String(reflecting: key.stringValue))"))
    }

    static func mismatch(_ type: Any.Type, _ value: Value, _ codingPath: [any CodingKey]) -> DecodingError {
        DecodingError.typeMismatch(type, DecodingError.Context(
            codingPath: codingPath, debugDescription: "expected \(type), found \(value.kind) value \(value)"))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else {
            throw Self.mismatch([String: Value].self, value, codingPath)
        }
        return KeyedDecodingContainer(
            ValueKeyedDecodingContainer<Key>(object: object, codingPath: codingPath, identifierKey: identifierKey))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let array) = value else {
            throw Self.mismatch([Value].self, value, codingPath)
        }
        return ValueUnkeyedDecodingContainer(array: array, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ValueSingleDecodingContainer(value: value, codingPath: codingPath)
    }
}

/// Scalar conversions shared by the three container kinds.
enum ValueScalars {
    static func bool(_ value: Value, _ path: [any CodingKey]) throws -> Bool {
        switch value {
        case .bool(let bool): return bool
        case .int(0): return false
        case .int(1): return true
        default: throw ValueDecodingState.mismatch(Bool.self, value, path)
        }
    }

    static func string(_ value: Value, _ path: [any CodingKey]) throws -> String {
        guard case .string(let string) = value else { throw ValueDecodingState.mismatch(String.self, value, path) }
        return string
    }

    static func double(_ value: Value, _ path: [any CodingKey]) throws -> Double {
        switch value {
        case .double(let double): return double
        case .int(let int):
            guard let exact = Double(exactly: int) else { throw ValueDecodingState.mismatch(Double.self, value, path) }
            return exact
        default: throw ValueDecodingState.mismatch(Double.self, value, path)
        }
    }

    /// A double as a `Float`: the nearest `Float`, as a `Float` reads a decimal; a finite double
    /// beyond the range of `Float` does not fit (it would read as infinity).
    static func float(_ value: Value, _ path: [any CodingKey]) throws -> Float {
        guard let float = float(exactly: try double(value, path)) else { throw ValueDecodingState.mismatch(Float.self, value, path) }
        return float
    }

    /// `double` as the nearest `Float`, `nil` when it is finite but beyond the range of `Float`.
    @inline(__always)
    static func float(exactly double: Double) -> Float? {
        let float = Float(double)
        return float.isFinite || !double.isFinite ? float : nil
    }

    static func integer<I: FixedWidthInteger>(_ value: Value, _ type: I.Type, _ path: [any CodingKey]) throws -> I {
        let converted: I?
        switch value {
        case .int(let int): converted = I(exactly: int)
        case .double(let double): converted = double.isFinite ? I(exactly: double) : nil
        default: converted = nil
        }
        guard let converted else { throw ValueDecodingState.mismatch(type, value, path) }
        return converted
    }
}

struct ValueKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: [String: Value]
    let codingPath: [any CodingKey]
    /// See ``ValueDecodingState/identifierKey``.
    var identifierKey: String? = nil

    /// Every key, in the byte order of their UTF-8, as records list attributes: the same order on
    /// every read of the same value, whatever order its dictionary happens to keep them in, so
    /// that a model listing its keys, or a dictionary naming its first value that does not fit,
    /// does the same each time.
    var allKeys: [Key] { BinaryValueCoding.sortedKeys(object).compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    private func value(_ key: Key) throws -> Value {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(
                codingPath: codingPath, debugDescription: "no value for \(String(reflecting: key.stringValue))"))
        }
        if value.isNull {
            throw DecodingError.valueNotFound(Any.self, DecodingError.Context(
                codingPath: codingPath + [key], debugDescription: "the value is null"))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { object[key.stringValue]?.isNull ?? true }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try ValueScalars.bool(value(key), codingPath + [key])
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try ValueScalars.string(value(key), codingPath + [key])
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try ValueScalars.double(value(key), codingPath + [key])
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try ValueScalars.float(value(key), codingPath + [key])
    }
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
        guard let value = object[key.stringValue] else {
            return try ValueDecodingState.absent(type, key, codingPath: codingPath)
        }
        if let components = identifierComponents(value, key) {
            return try CompositeIDDecoding.unbox(components, as: type, codingPath: codingPath + [key])
        }
        // A null goes to T itself, so that optionals decode it as nil.
        return try ValueDecodingState.unbox(value, as: type, codingPath: codingPath + [key])
    }

    /// The components of a composite identifier, when `value` is one under the identifier's key.
    private func identifierComponents(_ value: Value, _ key: Key) -> [Value]? {
        guard let identifierKey, case .array(let components) = value, key.stringValue == identifierKey else { return nil }
        return components
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let found = try value(key)
        if let components = identifierComponents(found, key) {
            let cursor = CompositeIDCursor(components: components)
            return try CompositeIDDecoder(cursor: cursor, codingPath: codingPath + [key]).container(keyedBy: type)
        }
        return try ValueDecodingState(value: found, codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecodingState(value: value(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        let key = ValueCodingKey(stringValue: "super")
        return ValueDecodingState(value: object["super"] ?? .null, codingPath: codingPath + [key])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecodingState(value: object[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}

struct ValueUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let array: [Value]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(array: [Value], codingPath: [any CodingKey]) {
        self.array = array
        self.codingPath = codingPath
    }

    var count: Int? { array.count }
    var isAtEnd: Bool { currentIndex >= array.count }

    private var currentPath: [any CodingKey] { codingPath + [ValueCodingKey(intValue: currentIndex)] }

    private mutating func next(_ type: Any.Type) throws -> Value {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, DecodingError.Context(
                codingPath: currentPath, debugDescription: "the array has only \(array.count) elements"))
        }
        let value = array[currentIndex]
        if value.isNull {
            throw DecodingError.valueNotFound(type, DecodingError.Context(
                codingPath: currentPath, debugDescription: "the value is null"))
        }
        currentIndex += 1
        return value
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, array[currentIndex].isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let path = currentPath
        return try ValueScalars.bool(next(type), path)
    }
    mutating func decode(_ type: String.Type) throws -> String {
        let path = currentPath
        return try ValueScalars.string(next(type), path)
    }
    mutating func decode(_ type: Double.Type) throws -> Double {
        let path = currentPath
        return try ValueScalars.double(next(type), path)
    }
    mutating func decode(_ type: Float.Type) throws -> Float {
        let path = currentPath
        return try ValueScalars.float(next(type), path)
    }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    private mutating func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        let path = currentPath
        return try ValueScalars.integer(next(type), type, path)
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let path = currentPath
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, DecodingError.Context(
                codingPath: path, debugDescription: "the array has only \(array.count) elements"))
        }
        // A null goes to T itself, so that optionals decode it as nil.
        let value = array[currentIndex]
        currentIndex += 1
        return try ValueDecodingState.unbox(value, as: type, codingPath: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let path = currentPath
        return try ValueDecodingState(value: next(type), codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let path = currentPath
        return try ValueDecodingState(value: next([Value].self), codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let path = currentPath
        return ValueDecodingState(value: try next(Any.self), codingPath: path)
    }
}

struct ValueSingleDecodingContainer: SingleValueDecodingContainer {
    let value: Value
    let codingPath: [any CodingKey]

    private func nonNull(_ type: Any.Type) throws -> Value {
        if value.isNull {
            throw DecodingError.valueNotFound(type, DecodingError.Context(
                codingPath: codingPath, debugDescription: "the value is null"))
        }
        return value
    }

    func decodeNil() -> Bool { value.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try ValueScalars.bool(nonNull(type), codingPath) }
    func decode(_ type: String.Type) throws -> String { try ValueScalars.string(nonNull(type), codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try ValueScalars.double(nonNull(type), codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try ValueScalars.float(nonNull(type), codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    private func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        try ValueScalars.integer(nonNull(type), type, codingPath)
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try ValueDecodingState.unbox(value, as: type, codingPath: codingPath)
    }
}
