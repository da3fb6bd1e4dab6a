import Persist
import PersistSQL

extension PostgresDialect {
    /// `column IN literals` as one `= ANY(array)` term where every literal's equality is a plain
    /// `=` on the column: integers in an integer column, strings in a text column. The planner
    /// then reads the column's index once for the whole list, where an `OR` of thousands of
    /// terms (a relation's include or filter) is evaluated on every row. Other columns and
    /// literals take one equality each.
    func membership(_ column: ColumnSchema, _ literals: [Value], _ parameters: inout SQLParameters<PGValue>) -> [String]? {
        if literals.count > 1, let term = arrayMembership(column, literals, &parameters) { return term.map { [$0] } ?? [] }
        var terms: [String] = []
        for literal in literals {
            guard let term = equality(column, literal, &parameters) else { return nil }
            if case .sql(let sql) = term { terms.append(sql) }
        }
        return terms
    }

    /// The `= ANY(array)` term, `.some(nil)` when no literal can match, `nil` when the column or a
    /// literal needs the per-literal form.
    private func arrayMembership(_ column: ColumnSchema, _ literals: [Value],
                                 _ parameters: inout SQLParameters<PGValue>) -> String?? {
        let q = column.quoted
        switch column.type {
        case .smallint, .integer, .bigint:
            var integers: [PGValue] = []
            let domain = column.type.integerRange ?? Int64.min...Int64.max
            for literal in literals {
                guard case .int(let int) = literal else { return nil }
                if domain.contains(int) { integers.append(.int8(int)) }
            }
            guard !integers.isEmpty else { return .some(nil) }
            return "\(q) = ANY(\(parameters.add(PGArrayEncoder.array(of: integers, elementType: PGType.int8))))"
        case .text(_, let byteOrdered):
            var strings: [PGValue] = []
            for literal in literals {
                guard case .string(let string) = literal else { return nil }
                if !string.containsNUL { strings.append(.text(string)) }
            }
            guard !strings.isEmpty else { return .some(nil) }
            let array = parameters.add(PGArrayEncoder.array(of: strings, elementType: PGType.text))
            return "\(q)\(byteOrdered ? "" : " COLLATE \"C\"") = ANY(\(array))"
        default:
            return nil
        }
    }
}
