/// Short renderings of the SQL statements a scenario counted, for its note.
enum StatementSummary {
    /// Each statement's first words, in order, repeats folded: `BEGIN; SELECT … FROM "Order" ×1; …`.
    static func describe(_ statements: [String]) -> String {
        var runs: [(text: String, count: Int)] = []
        for statement in statements {
            let text = shortened(statement)
            if runs.last?.text == text {
                runs[runs.count - 1].count += 1
            } else {
                runs.append((text, 1))
            }
        }
        return runs.map { $0.count == 1 ? $0.text : "\($0.text) ×\($0.count)" }.joined(separator: "; ")
    }

    /// The statement up to its table: `SELECT … FROM "OrderLine"`, or its first 40 characters.
    private static func shortened(_ statement: String) -> String {
        let words = statement.split(whereSeparator: \.isWhitespace)
        if let from = words.firstIndex(where: { $0.uppercased() == "FROM" }), from + 1 < words.count {
            return "\(words[0]) … FROM \(words[from + 1])"
        }
        return String(words.joined(separator: " ").prefix(40))
    }
}
