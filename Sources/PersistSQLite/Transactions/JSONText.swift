import Persist

/// How values are stored in columns declared `json`, `jsonb` or as an array (`text[]`,
/// `integer[]`, …) that a migration recreated from PostgreSQL, whose kind `json` is recorded: as
/// JSON text that `sqlite3` and a legacy app read (``JSONValueCoding/strict``: no whitespace,
/// object keys sorted), so `.array([1, 2])` is `[1,2]`, `.object(["a": "x"])` is `{"a":"x"}` and
/// `.string("x")` is `"x"`. A value is stored so only when its text reads back as exactly the same
/// value; one that has none (bytes, a date, NaN, an infinity, a decimal, which JSON reads back as
/// another kind of number) makes its column fall back.
///
/// The column's affinity may turn the text of a number into an INTEGER or a REAL, which reads back
/// as that number; other text reads back as the JSON it holds, and text that is no JSON (or the
/// JSON `null`) as the string it is.
enum JSONText {
    /// The kind recorded in the metadata table for such a column.
    static let kindName = "json"

    /// The JSON text of `value`, or `nil` when no text gives it back exactly.
    static func text(_ value: Value) -> String? {
        guard !value.isNull, let bytes = try? JSONValueCoding.strict.encode(value),
              let read = try? JSONValueCoding.strict.decode(bytes), same(read, value) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The value a column's text reads as: the JSON it holds, or the text as a string.
    static func value(ofText text: String) -> Value {
        guard let value = try? JSONValueCoding.strict.decode(Array(text.utf8)), !value.isNull else { return .string(text) }
        return value
    }

    /// Whether a declared type is one whose values become JSON text: `json`, `jsonb`, or an array.
    static func isJSONType(_ declaredType: String) -> Bool {
        let type = declaredType.lowercased().filter { !$0.isWhitespace }
        return type == "json" || type == "jsonb" || type.hasSuffix("[]")
    }

    /// Equality that tells doubles by their bits (`-0.0` from `0.0`) and numbers by their kinds.
    private static func same(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.double(let x), .double(let y)): return x.bitPattern == y.bitPattern
        case (.int(let x), .int(let y)): return x == y
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { same(value, $0) } ?? false }
        case (.string(let x), .string(let y)): return Array(x.utf8) == Array(y.utf8)
        case (.bool(let x), .bool(let y)): return x == y
        case (.null, .null): return true
        default: return false
        }
    }
}
