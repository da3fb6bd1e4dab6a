import Persist

/// The leaves of predicates over mixed columns (see ``MixedCodec``): each returns its SQL and the
/// bindings of its `?`, in order, or `nil` when the leaf can never hold.
enum MixedPredicates {
    /// `column == literal`, for a literal that is not null.
    static func equality(_ q: String, _ literal: Value) -> (String, [SQLBinding]) {
        if case .date(let date) = literal {
            let key = MixedCodec.dateKey(date.timeIntervalSinceReferenceDate)
            return ("(typeof(\(q)) = 'blob' AND substr(\(q), 1, \(MixedCodec.dateKeyLength)) = ?)", [.blob(key)])
        }
        return ("\(q) = ?", [MixedCodec.binding(literal)])
    }

    /// `column <op> literal` for `<`, `<=`, `>`, `>=`, a literal that is not null.
    static func ordering(_ q: String, _ op: String, _ literal: Value) -> (String, [SQLBinding])? {
        let isLess = op.hasPrefix("<")
        let nan = SQLBinding.blob([MixedCodec.nanTag])
        let numbers = "typeof(\(q)) IN ('integer', 'real')"
        switch literal {
        case .null, .array, .object:
            return nil
        case .double(let double) where double.isNaN:
            // NaN equals NaN and is below every other number.
            switch op {
            case "<": return nil
            case "<=": return ("\(q) = ?", [nan])
            case ">=": return ("(\(numbers) OR \(q) = ?)", [nan])
            default: return (numbers, [])
            }
        case .int, .double:
            let binding = MixedCodec.binding(literal)
            return isLess ? ("((\(numbers) AND \(q) \(op) ?) OR \(q) = ?)", [binding, nan])
                : ("(\(numbers) AND \(q) \(op) ?)", [binding])
        case .string(let string):
            return ("(typeof(\(q)) = 'text' AND \(q) \(op) ?)", [.text(string)])
        case .date(let date):
            let key = MixedCodec.dateKey(date.timeIntervalSinceReferenceDate)
            return ("(\(MixedCodec.hasTag(q, MixedCodec.dateTag)) AND substr(\(q), 1, \(MixedCodec.dateKeyLength)) \(op) ?)",
                    [.blob(key)])
        case .bool, .bytes:
            guard let tag = MixedCodec.tag(of: literal) else { return nil }
            return ("(\(MixedCodec.hasTag(q, tag)) AND \(q) \(op) ?)", [MixedCodec.binding(literal)])
        }
    }

    /// The type check and the haystack of a substring test on a mixed column.
    static func textOperands(_ q: String, isText: Bool) -> (typeCheck: String, haystack: String) {
        isText ? ("typeof(\(q)) = 'text'", "CAST(\(q) AS BLOB)")
            : (MixedCodec.hasTag(q, MixedCodec.bytesTag), "substr(\(q), 2)")
    }
}
