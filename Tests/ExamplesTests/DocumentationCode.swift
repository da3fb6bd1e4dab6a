import Foundation
import PersistTestSupport

/// Swift code shown in documentation (DocC articles and `///` comments), made into files that the
/// compiler type-checks as a user's code, all in one `swiftc` run. `#sourceLocation` lines make every
/// error name the article or source file and the line the reader sees.
enum DocumentationCode {
    /// One fenced Swift block: the file that shows it, the line of its first code line, its code.
    struct Block: Sendable {
        var path: String
        var line: Int
        var code: String
    }

    /// How a block becomes code the compiler accepts.
    enum Shape: Sendable {
        /// Statements: the body of a throwing function on the main actor (as top-level code of a
        /// `main.swift` is) whose parameters are what the prose takes as given, e.g.
        /// `store: any DataStore`; in a unit with a shared scope, consecutive blocks with the same
        /// parameters share one function.
        case statements(parameters: String)
        /// Declarations that only a file holds (extensions, `@Test` functions, public types),
        /// inside a struct of their own unless they extend a type.
        case declarations
        /// Members of a type the prose assumes, such as a requirement's implementation: the body
        /// of a final subclass of `base`, a class of the prelude.
        case members(of: String)
    }

    /// The code of one generated file: what it imports, a prelude of what the prose assumes
    /// (private to the file), and the blocks with their shapes. The blocks of an article share one
    /// scope, as the reader reads them in order; those of `///` comments stand alone.
    struct Unit: Sendable {
        var name: String
        var imports: Set<String>
        var prelude: String
        var blocks: [(block: Block, shape: Shape)]
        var sharedScope = true
    }

    /// Declarations every unit may use: `…`, which documentation writes for code the reader
    /// supplies, is read as a call of `elided()`.
    static let shared = """
        import Foundation

        /// Stands for code a documentation example leaves out (`{ … }`); never run.
        func elided() -> Never { fatalError("documentation code is only type-checked") }
        """

    /// Every Swift block of a Markdown file, with the line of its first code line.
    static func markdownBlocks(_ markdown: String, path: String) -> [Block] {
        fencedBlocks(markdown.split(separator: "\n", omittingEmptySubsequences: false).map { Substring($0) },
                     path: path)
    }

    /// Every fenced Swift block of `lines` (already stripped of any comment marker).
    static func fencedBlocks(_ lines: [Substring], path: String, firstLine: Int = 1) -> [Block] {
        var blocks: [Block] = []
        var current: (line: Int, lines: [Substring])?
        for (offset, line) in lines.enumerated() {
            if current == nil, line.hasPrefix("```swift") {
                current = (firstLine + offset + 1, [])
            } else if let open = current, line.hasPrefix("```") {
                blocks.append(Block(path: path, line: open.line, code: open.lines.joined(separator: "\n")))
                current = nil
            } else {
                current?.lines.append(line)
            }
        }
        return blocks
    }

    /// The lines of `code` that are Swift rather than blank or comment.
    static func significantLines(_ code: String) -> [Substring] {
        code.split(separator: "\n").filter {
            let text = $0.trimmingCharacters(in: .whitespaces)
            return !text.isEmpty && !text.hasPrefix("//")
        }
    }

    /// The shape a block's own first line calls for: declarations that only a file can hold,
    /// otherwise `fallback`.
    static func shape(of code: String, fallback: Shape) -> Shape {
        let first = significantLines(code).first { !$0.hasPrefix("import ") } ?? ""
        let fileScope = ["extension ", "@Test", "@Suite", "public final class ", "public struct ", "public enum "]
        return fileScope.contains { first.hasPrefix($0) } ? .declarations : fallback
    }

    /// The file `unit` becomes.
    static func source(of unit: Unit) -> String {
        var imports: Set<String> = unit.imports.union(["Foundation"])
        var parts: [String] = []
        var statements: [String] = []
        var parameters = ""
        // Code that awaits makes its function async, where `store.read { … }` means the async
        // overload; so a function is async only if all its blocks await, and otherwise the blocks
        // that await are local async functions, as they would be in the reader's synchronous code.
        func flush() {
            guard !statements.isEmpty else { return }
            let awaits = statements.map { $0.contains("await ") }
            let body = awaits.allSatisfy { $0 } ? statements : zip(statements, awaits).enumerated().map { number, pair in
                pair.1 ? "func asynchronous\(number)() async throws {\n\(pair.0)\n}" : pair.0
            }
            parts.append("@MainActor private func example\(parts.count)(\(parameters))"
                + (awaits.allSatisfy { $0 } ? " async" : "") + " throws {\n" + body.joined(separator: "\n") + "\n}")
            statements = []
        }
        for (block, shape) in unit.blocks {
            var code: [String] = []
            for line in block.code.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("import ") {
                    imports.insert(String(line.dropFirst("import ".count).prefix { $0 != " " }))
                    code.append("")   // keeps the lines where the reader sees them
                } else {
                    code.append(line.replacingOccurrences(of: "{ … }", with: "{ elided() }"))
                }
            }
            let located = "#sourceLocation(file: \"\(block.path)\", line: \(block.line))\n"
                + code.joined(separator: "\n") + "\n#sourceLocation()"
            switch shape {
            case .statements(let given):
                if given != parameters || !unit.sharedScope { flush() }
                parameters = given
                statements.append(located)
            case .declarations:
                flush()
                let extends = significantLines(block.code).contains { $0.hasPrefix("extension ") }
                parts.append(extends ? located : "private struct Example\(parts.count) {\n\(located)\n}")
            case .members(let base):
                flush()
                parts.append("private final class Example\(parts.count): \(base) {\n\(located)\n}")
            }
        }
        flush()
        return (imports.sorted().map { "import \($0)" } + [unit.prelude] + parts).joined(separator: "\n\n") + "\n"
    }

    /// The key of errors in no documentation file and no unit's generated file.
    static let unknown = "(unknown)"

    /// What `swiftc` said: the errors by the documentation file they name (an article or a Swift
    /// source whose `///` comments show the code), or by the unit whose prelude or wrapping they
    /// are in, or under ``unknown``.
    struct Verdict: Sendable {
        var errors: [String: [String]]
    }

    /// Type-checks all `units` in one `swiftc` run, each unit a file of its own, with the checks a
    /// build makes after type-checking (a `sending` closure that races, say) as well.
    static func typecheck(_ units: [Unit]) throws -> Verdict {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var files = [directory.url.appendingPathComponent("Shared.swift")]
        try shared.write(to: files[0], atomically: true, encoding: .utf8)
        var owners: [String: String] = [:]   // a generated file → its unit
        for (number, unit) in units.enumerated() {
            let file = directory.url.appendingPathComponent("Unit\(number).swift")
            try source(of: unit).write(to: file, atomically: true, encoding: .utf8)
            files.append(file)
            owners[file.path] = unit.name
        }
        let documents = Set(units.flatMap { $0.blocks.map(\.block.path) })
        let output = try Snippets.typecheck(files: files, arguments: ["-parse-as-library"], flowChecks: true)
        var errors: [String: [String]] = [:]
        var seen: Set<Substring> = []   // every job parses every file, and repeats its syntax errors
        for line in output.stderr.split(separator: "\n") where line.hasPrefix("/") && line.contains(": error: ") {
            guard seen.insert(line).inserted else { continue }
            let path = String(line.prefix { $0 != ":" })
            var text = String(line)
            if let unit = owners[path] {   // quote the generated line, which no reader has seen
                let number = Int(line.dropFirst(path.count + 1).prefix { $0 != ":" }) ?? 0
                let generated = (try? String(contentsOfFile: path, encoding: .utf8))?
                    .split(separator: "\n", omittingEmptySubsequences: false)
                text += "\n    in: " + (generated.flatMap { $0.indices.contains(number - 1) ? String($0[number - 1]) : nil } ?? "?")
                errors[unit, default: []].append(text)
            } else {
                errors[documents.contains(path) ? path : unknown, default: []].append(text)
            }
        }
        if output.status != 0, errors.isEmpty {
            errors[unknown] = ["swiftc failed without an error in a file: \(output.stderr)"]
        }
        return Verdict(errors: errors)
    }
}
