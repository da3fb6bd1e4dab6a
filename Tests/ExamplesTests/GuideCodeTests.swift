import Foundation
import Testing

/// The guides quote the examples; this keeps the quotes true.
@Suite("Migration guides quote compiled code")
struct GuideCodeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The lines that matter: trimmed, without blank lines and comment-only lines.
    static func significant(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("//") }
    }

    /// Every Swift code block of a Markdown file.
    static func swiftBlocks(_ markdown: String) -> [String] {
        DocumentationCode.markdownBlocks(markdown, path: "").map(\.code)
    }

    static func sources() throws -> [String] {
        var texts: [String] = []
        for folder in ["Examples", "Tests/ExamplesTests"] {
            let base = root.appendingPathComponent(folder)
            guard let files = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in files where file.pathExtension == "swift" {
                texts.append(try String(contentsOf: file, encoding: .utf8))
            }
        }
        return texts
    }

    static var guides: [String] {
        let folder = root.appendingPathComponent("MigrationGuides")
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".md") }.sorted()
    }

    @Test("every guide exists and every Swift block appears in an example that the tests build", arguments: guides)
    func quotesMatch(_ guide: String) throws {
        let markdown = try String(contentsOf: Self.root.appendingPathComponent("MigrationGuides/\(guide)"), encoding: .utf8)
        let sources = try Self.sources().map(Self.significant)
        for block in Self.swiftBlocks(markdown) {
            let wanted = Self.significant(block)
            let found = sources.contains { lines in
                guard lines.count >= wanted.count else { return false }
                return (0...(lines.count - wanted.count)).contains { Array(lines[$0..<($0 + wanted.count)]) == wanted }
            }
            #expect(found, "\(guide): this block matches no example:\n\(block)")
        }
    }

    @Test("the README's tours are the Tour and TourAsync examples")
    func readme() throws {
        let markdown = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let tour = try String(contentsOf: Self.root.appendingPathComponent("Examples/Tour/main.swift"), encoding: .utf8)
        let asyncTour = try String(contentsOf: Self.root.appendingPathComponent("Examples/TourAsync/TourAsync.swift"),
                                   encoding: .utf8)
        let blocks = Self.swiftBlocks(markdown)
        try #require(blocks.count == 2)
        let wanted = Self.significant(blocks[0])
        #expect(Array(Self.significant(tour).prefix(wanted.count)) == wanted)
        let wantedAsync = Self.significant(blocks[1])
        let asyncLines = Self.significant(asyncTour)
        #expect((0...(max(asyncLines.count - wantedAsync.count, 0))).contains {
            Array(asyncLines[$0..<min($0 + wantedAsync.count, asyncLines.count)]) == wantedAsync
        }, "the README's async block matches no run of TourAsync")
    }

    @Test("the guides cover every adoption path")
    func allGuides() {
        #expect(Self.guides == ["FromGDBM.md", "FromJustPersist.md", "FromLibpq.md", "FromSQLite.md", "GDBMToSQLite.md",
                                "README.md", "SQLiteToPostgreSQL.md", "WritingAWrapper.md"])
    }
}
