import Foundation
import Testing

/// The `///` comments of public declarations show short examples; this type-checks each one as a
/// user's code, as the body of a function whose parameters are what the comments take as given
/// (``DocCommentPrelude``). Comments of `package` and internal declarations show code only the
/// package can write, and are left out.
@Suite("The doc comments' code compiles")
struct DocCommentCodeTests {
    static let modules = ["Persist", "PersistSQL", "PersistSQLite", "PersistGDBM", "PersistPostgres", "PersistConformance"]

    /// Every Swift file of `module`, relative to the package's root.
    static func files(of module: String) -> [String] {
        let root = GuideCodeTests.root.path + "/"
        let folder = GuideCodeTests.root.appendingPathComponent("Sources/\(module)")
        guard let found = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return found.compactMap { ($0 as? URL)?.path }.filter { $0.hasSuffix(".swift") }
            .map { String($0.dropFirst(root.count)) }.sorted()
    }

    /// The text of a `///` line after the marker and one space, or nil for another line.
    static func comment(_ line: Substring) -> Substring? {
        let text = line.drop { $0 == " " }
        guard text.hasPrefix("///") else { return nil }
        let rest = text.dropFirst(3)
        return rest.hasPrefix(" ") ? rest.dropFirst() : rest
    }

    /// Whether the declaration on `lines[index]` is part of the module's public API: it says
    /// `public` or `open`, or it is a requirement of (or says nothing in) a public protocol or
    /// public extension.
    static func isPublic(_ index: Int, in lines: [Substring]) -> Bool {
        let declaration = lines[index].drop { $0 == " " }
        if declaration.hasPrefix("public ") || declaration.hasPrefix("open ") || declaration.contains(" public ") {
            return true
        }
        let restricted = ["package ", "internal ", "private ", "fileprivate ", "extension ", "import "]
        let indent = lines[index].count - declaration.count
        guard indent > 0, !restricted.contains(where: { declaration.hasPrefix($0) }) else { return false }
        for line in lines[..<index].reversed() {
            let text = line.drop { $0 == " " }
            guard !text.isEmpty, !text.hasPrefix("//"), line.count - text.count < indent else { continue }
            return text.hasPrefix("public protocol ") || text.hasPrefix("public extension ")
        }
        return false
    }

    /// The Swift blocks of the `///` comments of public declarations in `text`.
    static func blocks(inSource text: String, path: String) -> [DocumentationCode.Block] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var blocks: [DocumentationCode.Block] = []
        var index = 0
        while index < lines.count {
            guard comment(lines[index]) != nil else { index += 1; continue }
            let start = index
            while index < lines.count, comment(lines[index]) != nil { index += 1 }
            var declaration = index
            while declaration < lines.count, lines[declaration].drop(while: { $0 == " " }).hasPrefix("@") { declaration += 1 }
            guard declaration < lines.count, isPublic(declaration, in: lines) else { continue }
            blocks += DocumentationCode.fencedBlocks(lines[start..<index].compactMap(comment), path: path, firstLine: start + 1)
        }
        return blocks
    }

    /// The file the comments of one source file become, or nil when they show no Swift.
    static func unit(_ file: String, module: String) throws -> DocumentationCode.Unit? {
        let path = GuideCodeTests.root.appendingPathComponent(file).path
        let blocks = Self.blocks(inSource: try String(contentsOfFile: path, encoding: .utf8), path: path)
        guard !blocks.isEmpty else { return nil }
        let statements = DocumentationCode.Shape.statements(parameters: DocCommentPrelude.given(in: module))
        let members = DocCommentPrelude.memberContexts[file]
        return DocumentationCode.Unit(
            name: file, imports: DocCommentPrelude.imports, prelude: DocCommentPrelude.code,
            blocks: blocks.map { block in
                let first = DocumentationCode.significantLines(block.code).first ?? ""
                let isMember = ["func ", "var ", "public func ", "public var "].contains { first.hasPrefix($0) }
                if let members, isMember { return (block, .members(of: members)) }
                return (block, DocumentationCode.shape(of: block.code, fallback: statements))
            }, sharedScope: false)
    }

    /// Every module's comments type-checked at once (one `swiftc` run for every test case).
    static let verdict: Result<(units: [String], verdict: DocumentationCode.Verdict), any Error> = Result {
        let units = try modules.flatMap { module in try files(of: module).compactMap { try unit($0, module: module) } }
        return (units.map(\.name), try DocumentationCode.typecheck(units))
    }

    @Test("the public API's comments show Swift code in every module", arguments: modules)
    func found(_ module: String) throws {
        let units = try Self.verdict.get().units
        #expect(units.contains { $0.hasPrefix("Sources/\(module)/") })
        for file in DocCommentPrelude.memberContexts.keys { #expect(units.contains(file), "\(file) has a context") }
    }

    @Test("every Swift block of a public declaration's comment type-checks", arguments: modules)
    func typechecks(_ module: String) throws {
        let (units, verdict) = try Self.verdict.get()
        let root = GuideCodeTests.root.path + "/"
        let errors = units.filter { $0.hasPrefix("Sources/\(module)/") }
            .flatMap { (verdict.errors[root + $0] ?? []) + (verdict.errors[$0] ?? []) }
            + (verdict.errors[DocumentationCode.unknown] ?? [])
        #expect(errors.isEmpty, "\(module): swiftc:\n\(errors.joined(separator: "\n"))")
    }
}
