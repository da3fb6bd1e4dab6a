import Foundation
import Persist
import PersistSQL

/// PostgreSQL's words for the shared compilers: numbered `$n` parameters, at most
/// ``PGParameters/maximumCount`` of them, and the leaves over its column types, keeping the
/// semantics of the "Predicate semantics" article exactly. A leaf PostgreSQL cannot evaluate
/// exactly as the semantics say (on a `json` column, or an unconstrained `numeric` one) is `nil`:
/// the store then evaluates the request itself.
struct PostgresDialect: SQLDialect {
    typealias Table = TableSchema
    typealias Parameter = PGValue

    var numberedParameters: Bool { true }
    var maximumParameters: Int? { PGParameters.maximumCount }
    var updateVerb: String { "UPDATE" }

    func window(limit: Int?, offset: Int, _ parameters: inout SQLParameters<PGValue>) -> String {
        var clause = ""
        if let limit { clause += " LIMIT \(parameters.add(.int8(Int64(limit))))" }
        if offset > 0 { clause += " OFFSET \(parameters.add(.int8(Int64(offset))))" }
        return clause
    }

    func isNull(_ column: ColumnSchema) -> SQLCondition? {
        switch column.type {
        case .json: .sql("(\(column.quoted) IS NULL OR json_typeof(\(column.quoted)) = 'null')")
        case .jsonb: .sql("(\(column.quoted) IS NULL OR jsonb_typeof(\(column.quoted)) = 'null')")
        // A composite IS NULL when it is NULL or all its fields are: both read as a missing date.
        default: .sql("\(column.quoted) IS NULL")
        }
    }

    func orderTerms(_ column: ColumnSchema, ascending: Bool, _ parameters: inout SQLParameters<PGValue>) -> [String]? {
        OrderTerms.terms(column, ascending: ascending)
    }

    // MARK: Equality

    func equality(_ column: ColumnSchema, _ literal: Value, _ parameters: inout SQLParameters<PGValue>) -> SQLCondition? {
        guard !column.type.isComparedByStore else { return nil }
        let q = column.quoted
        switch (column.type, literal) {
        case (.mixed, _):
            let value = MixedValueCoding.comparable(literal)
            guard value.first == MixedValueCoding.numberTag || value.first == MixedValueCoding.dateTag else {
                return .sql("\(q) = \(parameters.add(.bytea(value)))")
            }
            // The kind byte after a number's magnitude does not count; a decimal's digits after it do.
            return .sql("(\(q) >= \(parameters.add(.bytea(value + [0]))) AND "
                + "\(q) < \(parameters.add(.bytea(value + [MixedValueCoding.digitsMarker]))))")
        case (.numeric, .int), (.numeric, .double), (.numeric, .decimal):
            guard let operand = numericOperand(literal) else { return .never }
            return .sql("\(q) = \(parameters.add(operand))")
        case (.smallint, .decimal(let decimal)), (.integer, .decimal(let decimal)), (.bigint, .decimal(let decimal)):
            return decimalComparison(q, .equal, decimal, &parameters)
        case (.real, .decimal), (.doublePrecision, .decimal):
            return nil
        case (.smallint, _), (.integer, _), (.bigint, _):
            return integerComparison(column, .equal, literal, &parameters)
        case (.real, _), (.doublePrecision, _):
            return doubleComparison(q, .equal, literal, &parameters)
        case (.date, .date), (.timestamp, .date), (.timestamptz, .date):
            return timeComparison(column, .equal, literal, &parameters)
        case (.persistDate, .date(let date)):
            return .sql("\(Self.dateSeconds(q)) = \(parameters.add(.float8(date.timeIntervalSinceReferenceDate)))")
        case (.text(_, let byteOrdered), .string(let string)):
            guard !string.containsNUL else { return .never }
            return .sql("\(q)\(byteOrdered ? "" : " COLLATE \"C\"") = \(parameters.add(.text(string)))")
        case (.character, .string(let string)):
            return .sql("bpcharsend(\(q)) = \(parameters.add(.bytea(Array(string.utf8))))")
        case (.uuid, .string(let string)):
            guard let bytes = UUIDCoding.bytes(string) else { return .never }
            return .sql("\(q) = \(parameters.add(.raw(type: PGType.uuid, bytes: bytes)))")
        case (.boolean, .bool(let bool)):
            return .sql("\(q) = \(parameters.add(.bool(bool)))")
        case (.bytea, .bytes(let bytes)):
            return .sql("\(q) = \(parameters.add(.bytea(bytes)))")
        case (.encoded(let kind), _) where literal.kind == kind:
            return .sql("\(q) = \(parameters.add(.bytea(BinaryValueCoding.encode(literal))))")
        default:
            return .never
        }
    }

    /// A number literal as a `numeric` parameter (a double as its shortest decimal, which is how
    /// the semantics compare a double with a decimal), exactly.
    private func numericOperand(_ literal: Value) -> PGValue? {
        switch literal {
        case .int(let int): .raw(type: PGType.numeric, bytes: NumericCoding.encode(int))
        case .double(let double): NumericCoding.encode(double == 0 ? 0 : double).map { .raw(type: PGType.numeric, bytes: $0) }
        case .decimal(let decimal):
            NumericCoding.encode(decimal, precision: nil, scale: nil).map { .raw(type: PGType.numeric, bytes: $0) }
        default: nil
        }
    }

    // MARK: Ordering

    func ordering(_ column: ColumnSchema, _ op: SQLComparison, _ literal: Value, _ parameters: inout SQLParameters<PGValue>) -> SQLCondition? {
        guard !column.type.isComparedByStore else { return nil }
        let q = column.quoted
        let symbol = op.symbol
        switch (column.type, literal) {
        case (.mixed, _):
            return mixedOrdering(q, op, literal, &parameters)
        case (.numeric, .int), (.numeric, .double), (.numeric, .decimal):
            if literal.doubleValue?.isNaN == true || literal.decimalValue?.isNaN == true {
                return nanOrdering(q, op, nan: "'NaN'::numeric")
            }
            guard let operand = numericOperand(literal) else { return .never }
            return withNaN(q, op, "\(q) \(symbol) \(parameters.add(operand))", nan: "'NaN'::numeric")
        case (.smallint, .decimal(let decimal)), (.integer, .decimal(let decimal)), (.bigint, .decimal(let decimal)):
            return decimalComparison(q, op, decimal, &parameters)
        case (.real, .decimal), (.doublePrecision, .decimal):
            return nil
        case (.smallint, _), (.integer, _), (.bigint, _):
            return integerComparison(column, op, literal, &parameters)
        case (.real, _), (.doublePrecision, _):
            return doubleComparison(q, op, literal, &parameters)
        case (.date, .date), (.timestamp, .date), (.timestamptz, .date):
            return timeComparison(column, op, literal, &parameters)
        case (.persistDate, .date(let date)):
            let seconds = date.timeIntervalSinceReferenceDate
            let expression = Self.dateSeconds(q)
            if seconds.isNaN { return nanOrdering(expression, op, nan: "'NaN'::float8") }
            return withNaN(expression, op, "\(expression) \(symbol) \(parameters.add(.float8(seconds)))",
                           nan: "'NaN'::float8")
        case (.text(_, let byteOrdered), .string(let string)):
            return textOrdering(byteOrdered ? q : "\(q) COLLATE \"C\"", op, string, &parameters)
        case (.uuid, .string(let string)):
            return textOrdering("\(q)::text COLLATE \"C\"", op, string, &parameters)
        case (.character, .string(let string)):
            return .sql("bpcharsend(\(q)) \(symbol) \(parameters.add(.bytea(Array(string.utf8))))")
        case (.boolean, .bool(let bool)):
            return .sql("\(q) \(symbol) \(parameters.add(.bool(bool)))")
        case (.bytea, .bytes(let bytes)):
            return .sql("\(q) \(symbol) \(parameters.add(.bytea(bytes)))")
        default:
            return .never
        }
    }

    /// `expression op L` for a non-NaN `L` on a column that may hold NaN, which PostgreSQL orders
    /// above every number and the semantics below: NaN is added below and kept out above.
    private func withNaN(_ expression: String, _ op: SQLComparison, _ comparison: String, nan: String) -> SQLCondition {
        switch op {
        case .less, .lessOrEqual: .sql("(\(comparison) OR \(expression) = \(nan))")
        case .greater, .greaterOrEqual: .sql("(\(comparison) AND \(expression) <> \(nan))")
        case .equal: .sql(comparison)
        }
    }

    /// `expression op NaN`: NaN equals NaN and is below every other number.
    private func nanOrdering(_ expression: String, _ op: SQLComparison, nan: String) -> SQLCondition {
        switch op {
        case .less: .never
        case .lessOrEqual, .equal: .sql("\(expression) = \(nan)")
        case .greater: .sql("\(expression) <> \(nan)")
        case .greaterOrEqual: .sql("\(expression) IS NOT NULL")
        }
    }

    /// A column of integers compared exactly with a decimal, as `numeric` (NaN is below every integer).
    private func decimalComparison(_ q: String, _ op: SQLComparison, _ decimal: Decimal,
                                   _ parameters: inout SQLParameters<PGValue>) -> SQLCondition {
        if decimal.isNaN {
            switch op {
            case .less, .lessOrEqual, .equal: return .never
            case .greater, .greaterOrEqual: return .sql("\(q) IS NOT NULL")
            }
        }
        guard let bytes = NumericCoding.encode(decimal, precision: nil, scale: nil) else { return .never }
        return .sql("\(q)::numeric \(op.symbol) \(parameters.add(.raw(type: PGType.numeric, bytes: bytes)))")
    }

    /// A column of integers compared exactly with an integer or a double.
    private func integerComparison(_ column: ColumnSchema, _ op: SQLComparison, _ literal: Value, _ parameters: inout SQLParameters<PGValue>) -> SQLCondition {
        let domain = column.type.integerRange ?? Int64.min...Int64.max
        switch literal {
        case .int(let int):
            return bounds(column.quoted, LiteralBounds.outcome(op, domain: domain) { $0 < int ? -1 : ($0 > int ? 1 : 0) }, &parameters)
        case .double(let double):
            return bounds(column.quoted, LiteralBounds.outcome(op, domain: domain) { LiteralBounds.compare($0, double) }, &parameters)
        default:
            return .never
        }
    }

    /// A column of doubles (`real`, `double precision`) compared with a double or an integer.
    private func doubleComparison(_ q: String, _ op: SQLComparison, _ literal: Value, _ parameters: inout SQLParameters<PGValue>) -> SQLCondition {
        let nan = "'NaN'::float8"
        switch literal {
        case .double(let double):
            if double.isNaN { return nanOrdering(q, op, nan: nan) }
            return withNaN(q, op, "\(q) \(op.symbol) \(parameters.add(.float8(double)))", nan: nan)
        case .int(let int):
            let (below, above) = LiteralBounds.neighbors(of: int)
            if below == above { return doubleComparison(q, op, .double(below), &parameters) }
            // No double equals the integer: compare with its neighbors.
            switch op {
            case .equal: return .never
            case .less, .lessOrEqual: return withNaN(q, op, "\(q) <= \(parameters.add(.float8(below)))", nan: nan)
            case .greater, .greaterOrEqual: return withNaN(q, op, "\(q) >= \(parameters.add(.float8(above)))", nan: nan)
            }
        default:
            return .never
        }
    }

    /// A `date`, `timestamp` or `timestamptz` column compared exactly with a date, through the
    /// stored days or microseconds.
    private func timeComparison(_ column: ColumnSchema, _ op: SQLComparison, _ literal: Value, _ parameters: inout SQLParameters<PGValue>) -> SQLCondition {
        guard case .date(let date) = literal else { return .never }
        let seconds = date.timeIntervalSinceReferenceDate
        let outcome: LiteralBounds.Outcome
        let encode: (Int64) -> PGValue
        if column.type == .date {
            let domain = Int64(Int32.min)...Int64(Int32.max)
            outcome = LiteralBounds.outcome(op, domain: domain) { days in
                LiteralBounds.compare(TimeCoding.date(fromDays: Int32(days)).timeIntervalSinceReferenceDate, seconds)
            }
            encode = { days in
                var bytes: [UInt8] = []
                let stored = Self.storable(days, first: TimeCoding.minimumDay, end: TimeCoding.endDay,
                                           infinities: Int64(Int32.min)...Int64(Int32.max))
                bytes.appendBigEndian(UInt32(bitPattern: Int32(truncatingIfNeeded: stored)))
                return .raw(type: PGType.date, bytes: bytes)
            }
        } else {
            outcome = LiteralBounds.outcome(op, domain: Int64.min...Int64.max) { micros in
                LiteralBounds.compare(TimeCoding.date(fromMicroseconds: micros).timeIntervalSinceReferenceDate, seconds)
            }
            let type = column.type == .timestamp ? PGType.timestamp : PGType.timestamptz
            encode = { micros in
                var bytes: [UInt8] = []
                let stored = Self.storable(micros, first: TimeCoding.minimumMicroseconds, end: TimeCoding.endMicroseconds,
                                           infinities: Int64.min...Int64.max)
                bytes.appendBigEndian(UInt64(bitPattern: stored))
                return .raw(type: type, bytes: bytes)
            }
        }
        return bounds(column.quoted, outcome, &parameters, encode: encode)
    }

    /// A bound PostgreSQL accepts that divides the stored values as `bound` does. A column holds
    /// `-infinity`, the values `first..<end` and `infinity` (the ends of `infinities`), none
    /// between them, so a bound in a gap moves to the gap's end; PostgreSQL refuses the others.
    static func storable(_ bound: Int64, first: Int64, end: Int64, infinities: ClosedRange<Int64>) -> Int64 {
        if bound > infinities.lowerBound && bound < first { return first }
        if bound >= end && bound < infinities.upperBound { return infinities.upperBound }
        return bound
    }

    private func bounds(_ q: String, _ outcome: LiteralBounds.Outcome, _ parameters: inout SQLParameters<PGValue>,
                        encode: (Int64) -> PGValue = { .int8($0) }) -> SQLCondition {
        switch outcome {
        case .none: return .never
        case .all: return .sql("\(q) IS NOT NULL")
        case .below(let bound): return .sql("\(q) < \(parameters.add(encode(bound)))")
        case .atLeast(let bound): return .sql("\(q) >= \(parameters.add(encode(bound)))")
        case .within(let lower, let upper):
            return .sql("(\(q) >= \(parameters.add(encode(lower))) AND \(q) < \(parameters.add(encode(upper))))")
        }
    }

    /// Text compared by UTF-8 bytes; a literal with NUL, which no stored text holds, compared
    /// through the text before its first NUL.
    private func textOrdering(_ expression: String, _ op: SQLComparison, _ string: String, _ parameters: inout SQLParameters<PGValue>) -> SQLCondition {
        guard let nul = string.utf8.firstIndex(of: 0) else {
            return .sql("\(expression) \(op.symbol) \(parameters.add(.text(string)))")
        }
        let prefix = String(decoding: string.utf8[..<nul], as: UTF8.self)
        // For text t without NUL: t < P\0… exactly when t <= P, and t > P\0… exactly when t > P.
        switch op {
        case .less, .lessOrEqual: return .sql("\(expression) <= \(parameters.add(.text(prefix)))")
        case .greater, .greaterOrEqual: return .sql("\(expression) > \(parameters.add(.text(prefix)))")
        case .equal: return .never
        }
    }

    /// A mixed column: byte ranges within the literal's kind (see ``MixedValueCoding``).
    private func mixedOrdering(_ q: String, _ op: SQLComparison, _ literal: Value, _ parameters: inout SQLParameters<PGValue>) -> SQLCondition {
        guard let tag = MixedValueCoding.tag(of: literal), tag < MixedValueCoding.arrayTag else { return .never }
        let value = MixedValueCoding.comparable(literal)
        let hasKindByte = tag == MixedValueCoding.numberTag || tag == MixedValueCoding.dateTag
        // The first encoding above the literal: past any kind byte for numbers and dates (a
        // decimal's digits after the same magnitude make a larger number).
        let firstAbove = hasKindByte ? value + [MixedValueCoding.digitsMarker] : value + [0]
        let kindStart = parameters.add(.bytea([tag]))
        switch op {
        case .less:
            return .sql("(\(q) >= \(kindStart) AND \(q) < \(parameters.add(.bytea(value))))")
        case .lessOrEqual:
            return .sql("(\(q) >= \(kindStart) AND \(q) < \(parameters.add(.bytea(firstAbove))))")
        case .greater:
            return .sql("(\(q) >= \(parameters.add(.bytea(firstAbove))) AND \(q) < \(parameters.add(.bytea([tag + 1]))))")
        case .greaterOrEqual:
            return .sql("(\(q) >= \(parameters.add(.bytea(value))) AND \(q) < \(parameters.add(.bytea([tag + 1]))))")
        case .equal:
            return .never
        }
    }

    // MARK: Substrings

    func text(_ column: ColumnSchema, _ op: DataStorePredicate.TextOperator, _ literal: Value,
              _ parameters: inout SQLParameters<PGValue>) -> SQLCondition? {
        guard !column.type.isComparedByStore else { return nil }
        let q = column.quoted
        switch (column.type, literal) {
        case (.text(_, let byteOrdered), .string(let string)):
            if string.isEmpty { return .sql("\(q) IS NOT NULL") }
            guard !string.containsNUL else { return .never }
            return characterSearch(byteOrdered ? q : "(\(q) COLLATE \"C\")", op, string, &parameters)
        case (.uuid, .string(let string)):
            if string.isEmpty { return .sql("\(q) IS NOT NULL") }
            guard !string.containsNUL else { return .never }
            return characterSearch("(\(q)::text COLLATE \"C\")", op, string, &parameters)
        case (.character, .string(let string)):
            if string.isEmpty { return .sql("\(q) IS NOT NULL") }
            return byteSearch("bpcharsend(\(q))", op, Array(string.utf8), &parameters)
        case (.bytea, .bytes(let bytes)):
            if bytes.isEmpty { return .sql("\(q) IS NOT NULL") }
            return byteSearch(q, op, bytes, &parameters)
        case (.mixed, .string), (.mixed, .bytes):
            let tag = literal.kind == .string ? MixedValueCoding.stringTag : MixedValueCoding.bytesTag
            let needle = literal.stringValue.map { Array($0.utf8) } ?? literal.bytesValue ?? []
            let kindCheck = "\(q) >= \(parameters.add(.bytea([tag]))) AND \(q) < \(parameters.add(.bytea([tag + 1])))"
            if needle.isEmpty { return .sql("(\(kindCheck))") }
            guard case .sql(let search) = byteSearch("substr(\(q), 2)", op, needle, &parameters) else { return .never }
            return .sql("(\(kindCheck) AND \(search))")
        default:
            return .never
        }
    }

    /// A substring test on text (valid UTF-8, so that character and byte matches agree).
    private func characterSearch(_ expression: String, _ op: DataStorePredicate.TextOperator, _ needle: String, _ parameters: inout SQLParameters<PGValue>) -> SQLCondition {
        let parameter = parameters.add(.text(needle))
        switch op {
        case .contains: return .sql("strpos(\(expression), \(parameter)) > 0")
        case .beginsWith: return .sql("starts_with(\(expression), \(parameter))")
        case .endsWith: return .sql("right(\(expression), char_length(\(parameter))) = \(parameter)")
        }
    }

    /// A substring test on bytes.
    private func byteSearch(_ expression: String, _ op: DataStorePredicate.TextOperator, _ needle: [UInt8], _ parameters: inout SQLParameters<PGValue>) -> SQLCondition {
        let parameter = parameters.add(.bytea(needle))
        switch op {
        case .contains:
            return .sql("position(\(parameter) in \(expression)) > 0")
        case .beginsWith:
            return .sql("substr(\(expression), 1, length(\(parameter))) = \(parameter)")
        case .endsWith:
            return .sql("(length(\(expression)) >= length(\(parameter)) AND "
                + "substr(\(expression), length(\(expression)) - length(\(parameter)) + 1) = \(parameter))")
        }
    }

    /// The seconds of a `persist_date` column, from `at` when another program left them NULL.
    static func dateSeconds(_ q: String) -> String {
        "coalesce((\(q)).seconds, (extract(epoch from (\(q)).at) - 978307200)::float8)"
    }
}
