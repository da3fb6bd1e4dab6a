import Persist
import PersistSQL

/// SQLite's words for the shared compilers: positional `?` parameters, `LIMIT ? OFFSET ?`, and
/// the leaves over its three kinds of columns (typed, mixed and legacy), keeping the semantics of
/// the "Predicate semantics" article exactly. Every leaf compiles: SQLite evaluates every request.
struct SQLiteDialect: SQLDialect {
    typealias Table = TableSchema
    typealias Parameter = SQLBinding

    var numberedParameters: Bool { false }
    var maximumParameters: Int? { nil }
    var updateVerb: String { "UPDATE OR ABORT" }

    private static let nan = SQLBinding.text(ValueCodec.nanMarker)

    func isNull(_ column: ColumnSchema) -> SQLCondition? {
        .sql("\(column.quoted) IS NULL")
    }

    func window(limit: Int?, offset: Int, _ parameters: inout SQLParameters<SQLBinding>) -> String {
        " LIMIT \(parameters.add(.int(limit.map { Int64($0) } ?? -1))) OFFSET \(parameters.add(.int(Int64(offset))))"
    }

    // MARK: Equality

    func equality(_ column: ColumnSchema, _ literal: Value, _ parameters: inout SQLParameters<SQLBinding>) -> SQLCondition? {
        switch column.storage {
        case .typed(let kind):
            if let crossing = Self.numberAcrossKinds(column, kind, .equal, literal, &parameters) { return crossing }
            guard ColumnKind(of: literal) == kind else { return .never }
            return .sql("\(column.quoted) = \(parameters.add(ValueCodec.typedBinding(literal)))")
        case .mixed:
            return .sql(MixedPredicates.equality(column.quoted, literal, &parameters))
        case .legacy where column.holdsJSON:
            return .sql(MixedPredicates.equality(Self.jsonValue(column), literal, &parameters))
        case .legacy(let affinity):
            if let form = column.dateForm, let condition = Self.dateText(column.quoted, form, .equal, literal, &parameters) {
                return condition
            }
            if column.readsDecimals, Self.isNumber(literal) {
                return Self.decimalReading(column.quoted, .equal, literal, &parameters)
            }
            if case .decimal = literal { return Self.legacyNumber(column.quoted, .equal, literal, &parameters) }
            guard let binding = ValueCodec.legacyBinding(literal), let storage = ValueCodec.storageClass(binding) else {
                return .never
            }
            return .sql("\(reference(column, affinity, storage)) = \(parameters.add(binding))\(collation(column, storage))")
        }
    }

    /// One IN list for the values of a typed column's kind (NaN is the marker text, which IN
    /// compares exactly like `=`); one equality per value on other columns.
    func membership(_ column: ColumnSchema, _ literals: [Value], _ parameters: inout SQLParameters<SQLBinding>) -> [String]? {
        guard case .typed(let kind) = column.storage else {
            return literals.compactMap { literal in
                if case .sql(let term) = equality(column, literal, &parameters) { return term }
                return nil
            }
        }
        let matching = literals.filter { ColumnKind(of: $0) == kind }
        var terms: [String] = []
        if !matching.isEmpty {
            let list = matching.map { parameters.add(ValueCodec.typedBinding($0)) }.joined(separator: ", ")
            terms.append("\(column.quoted) IN (\(list))")
        }
        // Numbers of the other numeric kind (an int in a decimal column) compare by their keys,
        // their parameters after the list's, in the order of the terms.
        for literal in literals where ColumnKind(of: literal) != kind {
            if case .sql(let term)? = Self.numberAcrossKinds(column, kind, .equal, literal, &parameters) { terms.append(term) }
        }
        return terms
    }

    /// A comparison of a typed column with a number where the column or the literal is a decimal:
    /// by order keys (see ``NumberKey``), as numbers of every kind compare exactly; `nil` when
    /// neither is a decimal or the literal is no number.
    private static func numberAcrossKinds(_ column: ColumnSchema, _ kind: ColumnKind, _ op: SQLComparison, _ literal: Value,
                                          _ parameters: inout SQLParameters<SQLBinding>) -> SQLCondition? {
        guard let literalKind = ColumnKind(of: literal), literalKind == .number || literalKind == .decimal,
              kind == .number || kind == .decimal, literalKind == .decimal || kind == .decimal,
              let key = NumberKey.key(literal) else { return nil }
        // A decimal literal equals the canonical binding of a decimal column's value.
        if kind == .decimal, literalKind == .decimal, op == .equal { return nil }
        let function = kind == .decimal ? SQLiteConnection.decimalKeyFunction : SQLiteConnection.numberKeyFunction
        return .sql("\(function)(\(column.quoted)) \(op.symbol) \(parameters.add(.blob(key)))")
    }

    /// The value of a column holding JSON text (see ``JSONText``) as a mixed column holds it.
    private static func jsonValue(_ column: ColumnSchema) -> String {
        "\(SQLiteConnection.jsonValueFunction)(\(column.quoted))"
    }

    /// What ISO text of a date column (see ``DateText``) looks like to SQL.
    static func looksLikeDate(_ q: String) -> String {
        "(typeof(\(q)) = 'text' AND \(q) GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*')"
    }

    /// A comparison on a legacy column holding dates as ISO text, whose order is the dates' order:
    /// a date literal against that text, a string literal against the other text; `nil` for
    /// other literals, which compare as on any legacy column.
    private static func dateText(_ q: String, _ form: DateText.Form, _ op: SQLComparison, _ literal: Value,
                                 _ parameters: inout SQLParameters<SQLBinding>) -> SQLCondition? {
        switch literal {
        case .date(let date):
            let seconds = date.timeIntervalSinceReferenceDate
            // The text the column would hold, or (between two days of a DATE column) the full one.
            guard let text = DateText.text(date, form) ?? (op == .equal ? nil : DateText.text(date, .dateTime)) else {
                // A date no text spells: NaN is below every date, others beyond every year the text holds.
                let above = seconds.isNaN || seconds < 0 ? !op.isLess : op.isLess
                return op != .equal && above ? .sql(looksLikeDate(q)) : .never
            }
            return .sql("(\(looksLikeDate(q)) AND \(q) \(op.symbol) \(parameters.add(.text(text))))")
        case .string(let string):
            if op == .equal, DateText.date(string) != nil { return .never }
            return .sql("(typeof(\(q)) = 'text' AND NOT \(looksLikeDate(q)) AND \(q) \(op.symbol) "
                + "\(parameters.add(.text(string))) COLLATE BINARY)")
        default:
            return nil
        }
    }

    private static func isNumber(_ value: Value) -> Bool {
        switch value {
        case .int, .double, .decimal: true
        default: false
        }
    }

    /// A legacy `NUMERIC(p,s)` column compared with a number: its values read as decimals (see
    /// ``ColumnSchema/readsDecimals``), by their keys; text is a string, never a number.
    private static func decimalReading(_ q: String, _ op: SQLComparison, _ literal: Value,
                                       _ parameters: inout SQLParameters<SQLBinding>) -> SQLCondition {
        guard let key = NumberKey.key(literal) else { return .never }
        return .sql("(typeof(\(q)) <> 'text' AND \(SQLiteConnection.decimalKeyFunction)(\(q)) \(op.symbol) "
            + "\(parameters.add(.blob(key))))")
    }

    /// A legacy column compared with a decimal: its integers and reals by their keys.
    private static func legacyNumber(_ q: String, _ op: SQLComparison, _ literal: Value,
                                     _ parameters: inout SQLParameters<SQLBinding>) -> SQLCondition {
        guard let key = NumberKey.key(literal) else { return .never }
        return .sql("(typeof(\(q)) IN ('integer', 'real') AND \(SQLiteConnection.numberKeyFunction)(\(q)) \(op.symbol) "
            + "\(parameters.add(.blob(key))))")
    }

    /// The column as the left operand of a comparison with a value of `storage`: `+column` when the
    /// column's affinity would otherwise convert the value (`+` removes the affinity).
    private func reference(_ column: ColumnSchema, _ affinity: ColumnAffinity, _ storage: StorageClass) -> String {
        affinity.convertsInComparison(storage) ? "+\(column.quoted)" : column.quoted
    }

    private func collation(_ column: ColumnSchema, _ storage: StorageClass) -> String {
        storage == .text && column.needsBinaryCollation ? " COLLATE BINARY" : ""
    }

    // MARK: Ordering

    func ordering(_ column: ColumnSchema, _ op: SQLComparison, _ literal: Value,
                  _ parameters: inout SQLParameters<SQLBinding>) -> SQLCondition? {
        let q = column.quoted
        let literalIsNaN = literal.doubleValue?.isNaN == true || literal.dateValue?.timeIntervalSinceReferenceDate.isNaN == true
        switch column.storage {
        case .typed(let kind):
            if let crossing = Self.numberAcrossKinds(column, kind, op, literal, &parameters) { return crossing }
            guard ColumnKind(of: literal) == kind, kind.isOrdered else { return .never }
            guard kind.isRealLike else {
                return .sql("\(q) \(op.symbol) \(parameters.add(ValueCodec.typedBinding(literal)))")
            }
            // NaN (the marker text) equals NaN and is below every other number.
            if literalIsNaN {
                switch op {
                case .less: return .never
                case .lessOrEqual, .equal: return .sql("\(q) = \(parameters.add(Self.nan))")
                case .greaterOrEqual: return .sql("\(q) IS NOT NULL")
                case .greater: return .sql("\(q) <> \(parameters.add(Self.nan))")
                }
            }
            let comparison = "\(q) \(op.symbol) \(parameters.add(ValueCodec.typedBinding(literal)))"
            // SQLite orders text after numbers, so the marker must be added below and kept out above.
            return .sql(op.isLess ? "(\(comparison) OR \(q) = \(parameters.add(Self.nan)))"
                : "(\(comparison) AND \(q) <> \(parameters.add(Self.nan)))")
        case .mixed:
            return MixedPredicates.ordering(q, op, literal, &parameters).map(SQLCondition.sql) ?? .never
        case .legacy where column.holdsJSON:
            return MixedPredicates.ordering(Self.jsonValue(column), op, literal, &parameters).map(SQLCondition.sql) ?? .never
        case .legacy(let affinity):
            if let form = column.dateForm, let condition = Self.dateText(q, form, op, literal, &parameters) { return condition }
            if column.readsDecimals, Self.isNumber(literal) { return Self.decimalReading(q, op, literal, &parameters) }
            if case .decimal = literal { return Self.legacyNumber(q, op, literal, &parameters) }
            if literalIsNaN, literal.kind == .double {
                // Legacy columns hold no NaN: every number is above it, none below or equal.
                return op.isLess ? .never : .sql("typeof(\(q)) IN ('integer', 'real')")
            }
            guard let binding = ValueCodec.legacyBinding(literal), let storage = ValueCodec.storageClass(binding) else {
                return .never
            }
            let reference = reference(column, affinity, storage)
            return .sql("(\(Self.storageGuard(q, storage)) AND \(reference) \(op.symbol) \(parameters.add(binding))"
                + "\(collation(column, storage)))")
        }
    }

    /// True when the column's value is of the comparison class of `storage`.
    private static func storageGuard(_ column: String, _ storage: StorageClass) -> String {
        switch storage {
        case .integer, .real: "typeof(\(column)) IN ('integer', 'real')"
        case .text: "typeof(\(column)) = 'text'"
        case .blob: "typeof(\(column)) = 'blob'"
        }
    }

    // MARK: Substrings

    func text(_ column: ColumnSchema, _ op: DataStorePredicate.TextOperator, _ literal: Value,
              _ parameters: inout SQLParameters<SQLBinding>) -> SQLCondition? {
        let needle: [UInt8]
        let storage: StorageClass
        switch literal {
        case .string(let string): (needle, storage) = (Array(string.utf8), .text)
        case .bytes(let bytes): (needle, storage) = (bytes, .blob)
        default: return .never
        }
        let q = column.quoted
        let typeCheck: String
        var haystack = storage == .text ? "CAST(\(q) AS BLOB)" : q
        switch column.storage {
        case .mixed:
            (typeCheck, haystack) = MixedPredicates.textOperands(q, isText: storage == .text)
        case .legacy where column.holdsJSON:
            (typeCheck, haystack) = MixedPredicates.textOperands(Self.jsonValue(column), isText: storage == .text)
        case .typed(.string) where storage == .text, .typed(.bytes) where storage == .blob:
            typeCheck = "\(q) IS NOT NULL"
        case .typed:
            return .never
        case .legacy:
            typeCheck = Self.storageGuard(q, storage)
        }
        if needle.isEmpty { return .sql(typeCheck) }
        // Byte-wise: text is compared as the blob of its UTF-8 bytes, so NUL characters count.
        let test: String
        switch op {
        case .contains:
            test = "instr(\(haystack), \(parameters.add(.blob(needle)))) > 0"
        case .beginsWith:
            let length = parameters.add(.int(Int64(needle.count)))
            test = "substr(\(haystack), 1, \(length)) = \(parameters.add(.blob(needle)))"
        case .endsWith:
            let start = parameters.add(.int(-Int64(needle.count)))
            test = "substr(\(haystack), \(start)) = \(parameters.add(.blob(needle)))"
        }
        switch column.storage {
        case .legacy, .mixed: return .sql("(\(typeCheck) AND \(test))")
        case .typed: return .sql(test)
        }
    }

    // MARK: Order

    /// SQLite already orders NULL < numbers < text < blobs, and numbers exactly; what it lacks is
    /// added here: NaN (the marker text) first among numbers, and arrays and objects all tied.
    func orderTerms(_ column: ColumnSchema, ascending: Bool, _ parameters: inout SQLParameters<SQLBinding>) -> [String]? {
        let direction = ascending ? "" : " DESC"
        switch column.storage {
        case .typed(let kind) where kind.isRealLike:
            // NULL, then NaN (`<> 'NaN'` is 0), then every other number (1).
            return ["\(column.quoted) <> \(parameters.add(Self.nan))\(direction)", "\(column.quoted)\(direction)"]
        case .typed(.decimal):
            // By exact value, NaN first: SQLite would order the BLOBs of long decimals after every REAL.
            return ["\(SQLiteConnection.decimalKeyFunction)(\(column.quoted))\(direction)"]
        case .typed(let kind) where !kind.isOrdered:
            return ["\(column.quoted) IS NOT NULL\(direction)"]
        case .typed:
            return ["\(column.quoted)\(direction)"]
        case .mixed:
            // By comparison class (NaN just below the other numbers), then within it.
            return ["\(MixedCodec.rank(column.quoted))\(direction)", "\(MixedCodec.sortKey(column.quoted))\(direction)"]
        case .legacy where column.holdsJSON:
            // As a mixed column orders the values the JSON text spells.
            let value = Self.jsonValue(column)
            return ["\(MixedCodec.rank(value))\(direction)", "\(MixedCodec.sortKey(value))\(direction)"]
        case .legacy where column.dateForm != nil:
            // NULL, numbers, dates (ISO text, in date order), other text, blobs.
            let q = column.quoted
            return ["CASE typeof(\(q)) WHEN 'null' THEN 0 WHEN 'integer' THEN 1 WHEN 'real' THEN 1 WHEN 'text' THEN "
                        + "(CASE WHEN \(Self.looksLikeDate(q)) THEN 2 ELSE 3 END) ELSE 4 END\(direction)",
                    "\(q) COLLATE BINARY\(direction)"]
        case .legacy where column.readsDecimals:
            // NULL, numbers (as decimals, by key), text, other bytes.
            let q = column.quoted
            let key = "\(SQLiteConnection.decimalKeyFunction)(\(q))"
            return ["CASE typeof(\(q)) WHEN 'null' THEN 0 WHEN 'text' THEN 2 WHEN 'blob' THEN "
                        + "(CASE WHEN \(key) IS NULL THEN 3 ELSE 1 END) ELSE 1 END\(direction)",
                    "CASE WHEN typeof(\(q)) = 'text' THEN \(q) ELSE coalesce(\(key), \(q)) END\(direction)"]
        case .legacy:
            return ["\(column.quoted)\(column.needsBinaryCollation ? " COLLATE BINARY" : "")\(direction)"]
        }
    }
}

/// The statements of requests on SQLite tables.
typealias CompiledQuery = PersistSQL.CompiledQuery<SQLBinding>

extension SQLiteDialect {
    /// Every SQLite leaf compiles, so a request always does; the error is for a dialect that broke that.
    private static func compiled(_ query: CompiledQuery?, _ table: TableSchema) throws -> CompiledQuery {
        guard let query else {
            throw DataStoreError(.unsupported, "a request on table \(String(reflecting: table.name)) did not compile to SQL")
        }
        return query
    }

    static func select(_ request: DataStoreRequest, from table: TableSchema, selecting list: String? = nil) throws
        -> CompiledQuery {
        try compiled(RequestCompiler.select(request, from: table, dialect: SQLiteDialect(), selecting: list), table)
    }

    static func count(_ request: DataStoreRequest, from table: TableSchema) throws -> CompiledQuery {
        try compiled(RequestCompiler.count(request, from: table, dialect: SQLiteDialect()), table)
    }

    static func delete(_ request: DataStoreRequest, from table: TableSchema) throws -> CompiledQuery {
        try compiled(RequestCompiler.delete(request, from: table, dialect: SQLiteDialect()), table)
    }

    static func update(_ request: DataStoreRequest, of table: TableSchema,
                       setting assignments: [(column: ColumnSchema, parameter: SQLBinding)]) throws -> CompiledQuery {
        try compiled(RequestCompiler.update(request, of: table, dialect: SQLiteDialect(), setting: assignments), table)
    }
}
