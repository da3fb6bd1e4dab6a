import Foundation
import Testing

/// The DocC articles show Swift code that no example holds; this type-checks it as a user's code
/// would be: each article's blocks in order, in one function (as top-level code of the user's
/// file), after a prelude that declares what the article's prose assumes (``ArticlePreludes``).
@Suite("The articles' code compiles")
struct ArticleCodeTests {
    static let catalogs = ["Persist", "PersistConformance", "PersistSQLite", "PersistGDBM", "PersistPostgres"]

    /// Every article that shows Swift code, as "Catalog/Article.md".
    static var articles: [String] {
        catalogs.flatMap { catalog in
            let folder = GuideCodeTests.root.appendingPathComponent("Sources/\(catalog)/\(catalog).docc")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return names.filter { $0.hasSuffix(".md") }.sorted().compactMap { name in
                let text = (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? ""
                return GuideCodeTests.swiftBlocks(text).isEmpty ? nil : "\(catalog)/\(name)"
            }
        }
    }

    static func path(of article: String) -> String {
        let catalog = String(article.prefix { $0 != "/" })
        return GuideCodeTests.root.appendingPathComponent("Sources/\(catalog)/\(catalog).docc")
            .appendingPathComponent(String(article.dropFirst(catalog.count + 1))).path
    }

    /// The article's blocks, less those ``ArticlePreludes/excluded`` names.
    static func blocks(of article: String) throws -> [DocumentationCode.Block] {
        let markdown = try String(contentsOfFile: path(of: article), encoding: .utf8)
        let excluded = ArticlePreludes.excluded[article] ?? []
        return DocumentationCode.markdownBlocks(markdown, path: path(of: article)).enumerated()
            .filter { !excluded.contains($0.offset) }.map(\.element)
    }

    /// The file an article (or a group of articles read together) becomes.
    static func unit(_ name: String, articles: [String]) throws -> DocumentationCode.Unit {
        let catalog = String(name.prefix { $0 != "/" })
        let prelude = ArticlePreludes.preludes[name] ?? ArticlePreludes.Prelude()
        var blocks: [(block: DocumentationCode.Block, shape: DocumentationCode.Shape)] = []
        for article in articles {
            for block in try Self.blocks(of: article) {
                blocks.append((block, DocumentationCode.shape(of: block.code, fallback: .statements(parameters: ""))))
            }
        }
        return DocumentationCode.Unit(name: name, imports: prelude.imports.union(["Persist", catalog]),
                                      prelude: prelude.code, blocks: blocks)
    }

    /// All articles type-checked at once (one `swiftc` run for every test case).
    static let verdict: Result<DocumentationCode.Verdict, any Error> = Result {
        var units: [DocumentationCode.Unit] = []
        for article in articles where ArticlePreludes.readWith[article] == nil {
            let group = [article] + articles.filter { ArticlePreludes.readWith[$0] == article }
            units.append(try unit(article, articles: group))
        }
        return try DocumentationCode.typecheck(units)
    }

    @Test("the catalogs show Swift code")
    func found() {
        #expect(Self.articles.count >= 16, "articles: \(Self.articles)")
        for name in ArticlePreludes.preludes.keys { #expect(Self.articles.contains(name), "\(name) has a prelude") }
    }

    @Test("every Swift block of the article type-checks", arguments: articles)
    func typechecks(_ article: String) throws {
        let verdict = try Self.verdict.get()
        let unit = ArticlePreludes.readWith[article] ?? article
        let errors = (verdict.errors[Self.path(of: article)] ?? []) + (verdict.errors[unit] ?? [])
            + (verdict.errors[DocumentationCode.unknown] ?? [])
        #expect(errors.isEmpty, "\(article): swiftc:\n\(errors.joined(separator: "\n"))")
    }
}
