import Foundation
import PersistTestSupport
import Testing

/// The wrappers' DocC articles show Swift code that no example holds; this type-checks it as a
/// user's code would be: each article's blocks in order, as one file, against the built modules.
@Suite("The wrapper articles' code compiles")
struct ArticleCodeTests {
    static let catalogs = ["PersistSQLite", "PersistGDBM", "PersistPostgres"]

    /// Every article of the wrappers' catalogs that shows Swift code, as "Catalog/Article.md".
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

    /// The article's blocks as one Swift file: the imports first, then the code in order.
    static func source(of article: String) throws -> String {
        let catalog = String(article.prefix { $0 != "/" })
        let url = GuideCodeTests.root.appendingPathComponent("Sources/\(catalog)/\(catalog).docc")
            .appendingPathComponent(String(article.dropFirst(catalog.count + 1)))
        let lines = GuideCodeTests.swiftBlocks(try String(contentsOf: url, encoding: .utf8))
            .flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false) }.map(String.init)
        let imports = Set(lines.filter { $0.hasPrefix("import ") } + ["import Foundation", "import Persist", "import \(catalog)"])
        return (imports.sorted() + lines.filter { !$0.hasPrefix("import ") }).joined(separator: "\n") + "\n"
    }

    @Test("the wrapper catalogs show Swift code")
    func found() {
        #expect(Self.articles.count >= 6, "articles: \(Self.articles)")
    }

    @Test("every Swift block of the article type-checks", arguments: articles)
    func typechecks(_ article: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("main.swift")
        try Self.source(of: article).write(to: file, atomically: true, encoding: .utf8)
        let output = try Snippets.typecheck(file: file)
        #expect(output.status == 0 && Snippets.diagnostics(output, "error").isEmpty,
                "\(article): swiftc: \(output.stderr)")
    }
}
