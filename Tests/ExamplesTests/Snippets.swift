import Foundation
import PersistTestSupport

/// Type-checks the Swift files in `Snippets/` as code outside the package would: against the
/// built modules, in Swift 6 mode, without the package's name (so `package` symbols are hidden).
enum Snippets {
    static func typecheck(_ name: String) throws -> ProductRunner.Output {
        let snippet = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Snippets/\(name).swift")
        let modules = ProductRunner.productsDirectory.appendingPathComponent("Modules")
        let swiftc = ProcessInfo.processInfo.environment["SWIFTC"] ?? "/opt/swift/usr/bin/swiftc"
        return try ProductRunner.run(swiftc, ["-typecheck", "-swift-version", "6", "-I", modules.path, snippet.path])
    }

    /// The lines of `output` that report an error or a warning in a source file.
    static func diagnostics(_ output: ProductRunner.Output, _ kind: String) -> [Substring] {
        output.stderr.split(separator: "\n").filter { $0.contains(".swift:") && $0.contains(": \(kind):") }
    }
}
