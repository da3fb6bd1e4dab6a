import Persist
import PersistSQL

/// The leaves of predicates over mixed columns (see ``MixedCodec``): each returns its SQL, its
/// values added to the parameters in the order of their `?`.
enum MixedPredicates {
    /// `column == literal`, for a literal that is not null.
    static func equality(_ q: String, _ literal: Value, _ parameters: inout SQLParameters<SQLBinding>) -> String {
        if case .date(let date) = literal {
            let key = MixedCodec.dateKey(date.timeIntervalSinceReferenceDate)
            return "(typeof(\(q)) = 'blob' AND substr(\(q), 1, \(MixedCodec.dateKeyLength)) = \(parameters.add(.blob(key))))"
        }
        if case .decimal = literal, let key = NumberKey.key(literal) {
            return number(q, .equal, key, &parameters)
        }
        let equal = "\(q) = \(parameters.add(MixedCodec.binding(literal)))"
        // Decimals the column holds equal the integers and doubles they spell.
        if literal.kind == .int || literal.kind == .double, let key = NumberKey.key(literal) {
            return "(\(equal) OR (\(MixedCodec.hasTag(q, MixedCodec.decimalTag)) AND "
                + "\(SQLiteConnection.numberKeyFunction)(\(q)) = \(parameters.add(.blob(key)))))"
        }
        return equal
    }

    /// A number of the column (NaN, integer, real or decimal, but not a string) against a key.
    private static func number(_ q: String, _ op: SQLComparison, _ key: [UInt8],
                               _ parameters: inout SQLParameters<SQLBinding>) -> String {
        "(typeof(\(q)) <> 'text' AND \(SQLiteConnection.numberKeyFunction)(\(q)) \(op.symbol) \(parameters.add(.blob(key))))"
    }

    /// `column <op> literal` for `<`, `<=`, `>`, `>=`, a literal that is not null; `nil` when it
    /// never holds.
    static func ordering(_ q: String, _ op: SQLComparison, _ literal: Value,
                         _ parameters: inout SQLParameters<SQLBinding>) -> String? {
        let nan = SQLBinding.blob([MixedCodec.nanTag])
        let numbers = "typeof(\(q)) IN ('integer', 'real')"
        switch literal {
        case .null, .array, .object:
            return nil
        case .double(let double) where double.isNaN:
            // NaN equals NaN (a decimal NaN too) and is below every other number.
            return op == .less ? nil : number(q, op, NumberKey.nan, &parameters)
        case .decimal:
            guard let key = NumberKey.key(literal) else { return nil }
            return number(q, op, key, &parameters)
        case .int, .double:
            if let key = NumberKey.key(literal) {
                // Integers and reals compare natively, decimals by their keys.
                let native = "\(numbers) AND \(q) \(op.symbol) \(parameters.add(MixedCodec.binding(literal)))"
                let decimal = "\(MixedCodec.hasTag(q, MixedCodec.decimalTag)) AND "
                    + "\(SQLiteConnection.numberKeyFunction)(\(q)) \(op.symbol) \(parameters.add(.blob(key)))"
                let nanBelow = op.isLess ? " OR \(q) = \(parameters.add(nan))" : ""
                return "((\(native)) OR (\(decimal))\(nanBelow))"
            }
            let comparison = "\(numbers) AND \(q) \(op.symbol) \(parameters.add(MixedCodec.binding(literal)))"
            return op.isLess ? "((\(comparison)) OR \(q) = \(parameters.add(nan)))" : "(\(comparison))"
        case .string(let string):
            return "(typeof(\(q)) = 'text' AND \(q) \(op.symbol) \(parameters.add(.text(string))))"
        case .date(let date):
            let key = MixedCodec.dateKey(date.timeIntervalSinceReferenceDate)
            return "(\(MixedCodec.hasTag(q, MixedCodec.dateTag)) AND substr(\(q), 1, \(MixedCodec.dateKeyLength)) "
                + "\(op.symbol) \(parameters.add(.blob(key))))"
        case .bool, .bytes:
            guard let tag = MixedCodec.tag(of: literal) else { return nil }
            return "(\(MixedCodec.hasTag(q, tag)) AND \(q) \(op.symbol) \(parameters.add(MixedCodec.binding(literal))))"
        }
    }

    /// The type check and the haystack of a substring test on a mixed column.
    static func textOperands(_ q: String, isText: Bool) -> (typeCheck: String, haystack: String) {
        isText ? ("typeof(\(q)) = 'text'", "CAST(\(q) AS BLOB)")
            : (MixedCodec.hasTag(q, MixedCodec.bytesTag), "substr(\(q), 2)")
    }
}
