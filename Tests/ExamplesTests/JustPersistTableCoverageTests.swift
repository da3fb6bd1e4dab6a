import Foundation
import Testing

/// Keeps the call table of `MigrationGuides/FromJustPersist.md` compiled: every backticked Persist
/// call of its right-hand column, and the left-hand calls of the rows that say "the same", must be
/// in `JustPersistTableTests.swift`, so a renamed API breaks the build there and an edited table
/// without code fails here.
@Suite("The JustPersist table is compiled code")
struct JustPersistTableCoverageTests {
    /// The rows of the guide's table: the cells of each, header and separator left out.
    static func rows(_ markdown: String) -> [[String]] {
        markdown.split(separator: "\n").filter { $0.hasPrefix("| ") }.dropFirst().map { line in
            line.dropFirst(2).dropLast(2).components(separatedBy: " | ")
        }
    }

    /// The backticked spans of a table cell.
    static func spans(_ cell: String) -> [String] {
        cell.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
    }

    /// `text` with runs of blank space made one space.
    static func collapsed(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// What `span` asks of the code, in order: a selector `name(a:b:)` asks for `name(a:` and then
    /// `b:` within that call's parentheses; other spans ask for their text, with `…` standing for
    /// any code.
    static func pieces(_ span: String) -> (pieces: [String], inOneCall: Bool) {
        let selector = #/^(try )?[A-Za-z_.]+\(([A-Za-z_]+:)+\)$/#
        if span.wholeMatch(of: selector) != nil {
            let labels = span.dropLast().split(separator: ":").map(String.init)
            return ([labels[0] + ":"] + labels.dropFirst().map { $0 + ":" }, true)
        }
        return (span.components(separatedBy: "…").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty },
                false)
    }

    /// Whether `code` holds `pieces` in order (inside the parentheses the first piece opens, when
    /// `inOneCall`).
    static func holds(_ code: String, _ pieces: [String], inOneCall: Bool) -> Bool {
        guard let first = pieces.first else { return false }
        var start = code.startIndex
        while let found = code.range(of: first, range: start..<code.endIndex) {
            start = found.upperBound
            var rest = code[found.upperBound...]
            if inOneCall {
                var depth = 1
                let end = rest.firstIndex { character in
                    depth += character == "(" ? 1 : character == ")" ? -1 : 0
                    return depth == 0
                } ?? rest.endIndex
                rest = rest[..<end]
            }
            var matched = true
            for piece in pieces.dropFirst() {
                guard let next = rest.range(of: piece) else { matched = false; break }
                rest = rest[next.upperBound...]
            }
            if matched { return true }
        }
        return false
    }

    @Test("every Persist call of the table is in JustPersistTableTests.swift")
    func tableIsCompiled() throws {
        let root = GuideCodeTests.root
        let markdown = try String(contentsOf: root.appendingPathComponent("MigrationGuides/FromJustPersist.md"), encoding: .utf8)
        let source = try String(contentsOf: root.appendingPathComponent("Tests/ExamplesTests/JustPersistTableTests.swift"),
                                encoding: .utf8)
        // Code only: no comments, and no test names, which could quote a call without making it.
        let code = Self.collapsed(GuideCodeTests.significant(source).filter { !$0.hasPrefix("@Test(") && !$0.hasPrefix("@Suite(") }
            .joined(separator: "\n"))
        let rows = Self.rows(markdown)
        #expect(rows.count >= 20, "the table was not found")
        for row in rows {
            try #require(row.count == 2, "a row of two cells: \(row)")
            var calls = Self.spans(row[1])
            if calls.isEmpty {
                // "the same": the JustPersist call is the Persist call.
                #expect(row[1].hasPrefix("the same"), "a row with no Persist call: \(row)")
                calls = Self.spans(row[0])
            }
            for call in calls {
                if call.hasSuffix(".swift") {
                    #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(call).path), "no file \(call)")
                    continue
                }
                let (pieces, inOneCall) = Self.pieces(call)
                let held = Self.holds(code, pieces.map(Self.collapsed), inOneCall: inOneCall)
                #expect(held, "`\(call)` of the table is not in JustPersistTableTests.swift")
            }
        }
    }

    @Test("the matching catches a missing call, a missing label and a label outside the call")
    func matching() {
        let code = "let n = try accessor.deleteAllItems(ofType: \"A\") request.setFilter(whereAttribute: \"a\", equalsValue: 1) f(equalsValue: 2)"
        func holds(_ span: String) -> Bool {
            let (pieces, inOneCall) = Self.pieces(span)
            return Self.holds(code, pieces, inOneCall: inOneCall)
        }
        #expect(holds("try accessor.deleteAllItems(ofType:)"))
        #expect(holds("request.setFilter(whereAttribute:equalsValue:)"))
        #expect(!holds("try accessor.deleteAllItems(ofMutableType:)"))
        #expect(!holds("accessor.deleteAllItems(ofType:equalsValue:)"))
        #expect(holds("try accessor.deleteAllItems(ofType: \"A\")"))
        #expect(!holds("store.writeAsync({ accessor in … }, completion: { result in … })"))
    }
}
