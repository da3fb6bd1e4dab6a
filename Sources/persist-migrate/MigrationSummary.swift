import Foundation
import Persist

/// The outcome of a run, as text for people and as JSON for programs: per item type, the items
/// read, written and skipped, their bytes, the seconds spent and whether (and how long) they were
/// verified.
struct MigrationSummary: Codable, Sendable {
    struct Store: Codable, Sendable {
        /// `gdbm` or `sqlite`; `nil` when the run stopped before it was known.
        var kind: String?
        var path: String
        /// The GDBM layout, `native` or `raw`.
        var layout: String?
        /// Whether the kind was found in the file or in the name's extension rather than named.
        var kindDetected: Bool
        /// Whether the layout was found in the file rather than given.
        var layoutDetected: Bool
    }

    struct TypeLine: Codable, Sendable {
        var itemType: String
        var read: Int
        var written: Int
        var skipped: Int
        /// Items the reshape left out (none unless a transform skips items).
        var omitted: Int
        var bytes: Int
        var seconds: Double
        var verified: Bool
        var verificationSeconds: Double
    }

    struct Totals: Codable, Sendable {
        var read: Int
        var written: Int
        var skipped: Int
        var omitted: Int
        var bytes: Int
    }

    /// A `--rename-*` or `--drop-attribute` rule and the number of items it applied to.
    struct RuleLine: Codable, Sendable {
        var rule: String
        var items: Int
    }

    struct Failure: Codable, Sendable {
        var code: String
        var message: String
        var hint: String?
    }

    var source: Store
    var target: Store
    var dryRun: Bool
    var verified: Bool
    var types: [TypeLine]
    var totals: Totals
    var seconds: Double
    var verificationSeconds: Double
    /// What the run found or did that the user should know: a detected layout, a recovered copy.
    var notes: [String]
    /// Columns of recreated tables whose declared type gave way to a lossless fallback.
    var fallbacks: [MigrationReport.Fallback]
    /// The relations declared on the target, as `Track(albumId) → Album, on delete deny`.
    var relations: [String]
    /// The reshape rules given, with their counts.
    var reshape: [RuleLine]
    var exitStatus: Int32
    var error: Failure?

    init(source: Store, target: Store, dryRun: Bool, report: MigrationReport?, seconds: Double, notes: [String],
         reshape: [RuleLine] = [], exit: ToolExit, error: Failure?) {
        self.source = source
        self.target = target
        self.dryRun = dryRun
        verified = report?.verified ?? false
        types = report?.types.map {
            TypeLine(itemType: $0.itemType, read: $0.read, written: $0.written, skipped: $0.skipped, omitted: $0.omitted,
                     bytes: $0.bytes,
                     seconds: Self.rounded($0.seconds), verified: $0.verified,
                     verificationSeconds: Self.rounded($0.verificationSeconds))
        } ?? []
        totals = Totals(read: report?.read ?? 0, written: report?.written ?? 0, skipped: report?.skipped ?? 0,
                        omitted: report?.omitted ?? 0, bytes: report?.bytes ?? 0)
        self.seconds = Self.rounded(seconds)
        verificationSeconds = Self.rounded(report?.verificationSeconds ?? 0)
        self.notes = notes
        fallbacks = report?.fallbacks ?? []
        relations = report?.relations.map { "\($0.name): \($0)" } ?? []
        self.reshape = reshape
        exitStatus = exit.rawValue
        self.error = error
    }

    private static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// A short table for people. "writing" is the time spent writing each type's items into the
    /// target; reading overlaps with it, so the whole run's seconds are on the first line.
    func text() -> String {
        let verb = dryRun ? "would copy" : "copied"
        let outcome = dryRun ? " (dry run, nothing written)" : verified ? " (verified)" : " (not verified)"
        var lines = ["\(verb) \(Self.name(source)) → \(Self.name(target)) in " + String(format: "%.1f s", seconds) + outcome]
        lines += notes.map { "  note: " + $0 }
        lines += reshape.filter { $0.items > 0 }.map { "  reshaped: \($0.rule) applied to \($0.items) item(s)" }
        if totals.omitted > 0 { lines.append("  omitted: \(totals.omitted) item(s) left out by the transform") }
        lines += fallbacks.map { fallback in
            "  fallback: \(fallback.itemType).\(fallback.column) declared \(fallback.declaredType) is now "
                + "\(fallback.fallbackType), to keep \(fallback.example) (no value lost)"
        }
        lines += relations.map { "  relation: " + $0 }
        let nameWidth = max(types.map(\.itemType.count).max() ?? 0, 5)
        func row(_ cells: [String]) -> String {
            // Padded by characters: Foundation's padding counts UTF-16 units, and cuts longer names.
            "  " + cells[0].leftAligned(nameWidth)
                + cells.dropFirst().map { "  " + $0.leftAligned(10) }.joined()
        }
        lines.append(row(["type", "read", dryRun ? "to write" : "written", dryRun ? "present" : "skipped", "bytes",
                          "writing", "verified"]))
        for line in types {
            lines.append(row([line.itemType, "\(line.read)", "\(line.written)", "\(line.skipped)", Self.size(line.bytes),
                              Self.seconds(line.seconds), Self.verification(line.verified, line.verificationSeconds)]))
        }
        lines.append(row(["total", "\(totals.read)", "\(totals.written)", "\(totals.skipped)", Self.size(totals.bytes),
                          Self.seconds(types.reduce(0) { $0 + $1.seconds }), Self.verification(verified, verificationSeconds)]))
        return lines.joined(separator: "\n")
    }

    /// `kind:path` for a file; a URL, which names its kind, as it is.
    private static func name(_ store: Store) -> String {
        guard let kind = store.kind, StoreName.Kind(rawValue: kind)?.isFile != false else { return store.path }
        return "\(kind):\(store.path)"
    }

    private static func verification(_ verified: Bool, _ seconds: Double) -> String {
        verified ? "yes, " + Self.seconds(seconds) : "no"
    }

    private static func seconds(_ value: Double) -> String {
        String(format: "%.2f", value) + " s"
    }

    /// Bytes for people: `812 B`, `5.2 MB`.
    static func size(_ bytes: Int) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : String(format: "%.1f", value) + " " + units[unit]
    }
}

extension String {
    fileprivate func leftAligned(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
