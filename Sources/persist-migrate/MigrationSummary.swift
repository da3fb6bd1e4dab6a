import Foundation
import Persist

/// The outcome of a run, as text for people and as JSON for programs.
struct MigrationSummary: Codable, Sendable {
    struct Store: Codable, Sendable {
        var kind: String
        var path: String
        var layout: String?
    }

    struct TypeLine: Codable, Sendable {
        var itemType: String
        var read: Int
        var written: Int
        var skipped: Int
        var verified: Bool
    }

    struct Totals: Codable, Sendable {
        var read: Int
        var written: Int
        var skipped: Int
    }

    struct Failure: Codable, Sendable {
        var code: String
        var message: String
    }

    var source: Store
    var target: Store
    var dryRun: Bool
    var verified: Bool
    var types: [TypeLine]
    var totals: Totals
    var seconds: Double
    var exitStatus: Int32
    var error: Failure?

    init(source: Store, target: Store, dryRun: Bool, report: MigrationReport?, seconds: Double, exit: ToolExit, error: Failure?) {
        self.source = source
        self.target = target
        self.dryRun = dryRun
        verified = report?.verified ?? false
        types = report?.types.map {
            TypeLine(itemType: $0.itemType, read: $0.read, written: $0.written, skipped: $0.skipped, verified: $0.verified)
        } ?? []
        totals = Totals(read: report?.read ?? 0, written: report?.written ?? 0, skipped: report?.skipped ?? 0)
        self.seconds = (seconds * 1000).rounded() / 1000
        exitStatus = exit.rawValue
        self.error = error
    }

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// A short table for people.
    func text() -> String {
        let verb = dryRun ? "would copy" : "copied"
        var lines = ["\(verb) \(source.kind):\(source.path) → \(target.kind):\(target.path) in "
            + String(format: "%.1f s", seconds) + (dryRun ? " (dry run, nothing written)" : verified ? " (verified)" : " (not verified)")]
        let nameWidth = max(types.map(\.itemType.count).max() ?? 0, 5)
        func row(_ name: String, _ read: String, _ written: String, _ skipped: String, _ verified: String) -> String {
            "  " + name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
                + "  " + read.leftAligned(10) + "  " + written.leftAligned(10) + "  " + skipped.leftAligned(10) + "  " + verified
        }
        lines.append(row("type", "read", dryRun ? "to write" : "written", dryRun ? "present" : "skipped", "verified"))
        for line in types {
            lines.append(row(line.itemType, "\(line.read)", "\(line.written)", "\(line.skipped)", line.verified ? "yes" : "no"))
        }
        lines.append(row("total", "\(totals.read)", "\(totals.written)", "\(totals.skipped)", verified ? "yes" : "no"))
        return lines.joined(separator: "\n")
    }
}

extension String {
    fileprivate func leftAligned(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
