import Foundation

/// Runs built executables (examples and tools) the way a user would, and captures their output.
public enum ProductRunner {
    /// The folder holding the built products: the test bundle's own folder.
    public static var productsDirectory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs `executable` (a path, or a product name looked up in the products folder), in
    /// `environment` when given (this process's otherwise).
    public static func run(_ executable: String, _ arguments: [String] = [], in directory: URL? = nil,
                           environment: [String: String]? = nil) throws -> Output {
        let process = Process()
        process.executableURL = executable.contains("/")
            ? URL(fileURLWithPath: executable) : productsDirectory.appendingPathComponent(executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        // Standard error goes to a file: with two pipes read one after the other, a process that
        // fills the second pipe's buffer (64 KiB, a compiler's many diagnostics) waits forever.
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("persist-stderr-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: errorFile.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: errorFile.path])
        }
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let err = try FileHandle(forWritingTo: errorFile)
        defer { try? err.close() }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errData = try Data(contentsOf: errorFile)
        return Output(status: process.terminationStatus,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// A fresh temporary directory; remove it with `FileManager.default.removeItem(at:)`.
    public static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("persist-examples-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}
