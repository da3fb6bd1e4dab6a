import Foundation
import PersistTestSupport

/// Type-checks the Swift files in `Snippets/` as code outside the package would: against the
/// built modules, in Swift 6 mode, without the package's name (so `package` symbols are hidden).
enum Snippets {
    static func typecheck(_ name: String) throws -> ProductRunner.Output {
        try typecheck(file: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Snippets/\(name).swift"))
    }

    /// Type-checks `file`, which may import the wrappers: their C modules are found as the
    /// package finds them, from their module maps and libpq's pkg-config flags.
    static func typecheck(file: URL) throws -> ProductRunner.Output {
        try typecheck(files: [file])
    }

    /// Type-checks `files` as one module, with any further `swiftc` `arguments`. With
    /// `flowChecks`, the compiler also runs the checks it makes only on SIL, after type-checking,
    /// as a user's build does: `sending` and other data-race checks, definite initialization,
    /// missing returns (all of them only when every file type-checks).
    static func typecheck(files: [URL], arguments extra: [String] = [], flowChecks: Bool = false) throws -> ProductRunner.Output {
        let modules = ProductRunner.productsDirectory.appendingPathComponent("Modules")
        let sources = GuideCodeTests.root.appendingPathComponent("Sources")
        let swiftc = ProcessInfo.processInfo.environment["SWIFTC"] ?? "/opt/swift/usr/bin/swiftc"
        let mode = flowChecks ? ["-wmo", "-emit-sil", "-o", "/dev/null"] : ["-typecheck"]
        var arguments = mode + ["-swift-version", "6", "-I", modules.path]
        for module in ["CSQLite", "CGDBM", "CLibPQ"] {
            arguments += ["-I", sources.appendingPathComponent(module).path]
        }
        let libpq = try ProductRunner.run("/usr/bin/env", ["pkg-config", "--cflags-only-I", "libpq"])
        for flag in libpq.stdout.split(whereSeparator: \.isWhitespace) { arguments += ["-Xcc", String(flag)] }
        // Every file is checked even when one has errors.
        arguments.append("-continue-building-after-errors")
        // The compiler driver leaves a TemporaryDirectory.* folder in TMPDIR at every run: it
        // gets a folder of the test's own, removed afterwards.
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = scratch.url.path
        return try ProductRunner.run(swiftc, arguments + extra + files.map(\.path), environment: environment)
    }

    /// The lines of `output` that report an error or a warning in a source file.
    static func diagnostics(_ output: ProductRunner.Output, _ kind: String) -> [Substring] {
        output.stderr.split(separator: "\n").filter { $0.contains(".swift:") && $0.contains(": \(kind):") }
    }
}
