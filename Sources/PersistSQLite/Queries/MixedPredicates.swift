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
        return "\(q) = \(parameters.add(MixedCodec.binding(literal)))"
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
            // NaN equals NaN and is below every other number.
            switch op {
            case .less: return nil
            case .lessOrEqual, .equal: return "\(q) = \(parameters.add(nan))"
            case .greaterOrEqual: return "(\(numbers) OR \(q) = \(parameters.add(nan)))"
            case .greater: return numbers
            }
        case .int, .double, .decimal:
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
