import Foundation
import Logging
import Persist
import Testing

extension Logger {
    /// A logger that only reports warnings and worse, so test output stays readable.
    static var quiet: Logger {
        var logger = Logger(label: "persist.gdbm.tests")
        logger.logLevel = .warning
        return logger
    }
}

/// A fresh temporary directory for one test, removed by ``remove()``.
struct TestDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("persist-gdbm-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the directory.
    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Expects `body` to throw a ``DataStoreError`` with `code`; returns it for further checks.
@discardableResult
func expectError<R>(
    _ code: DataStoreError.Code,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> R
) -> DataStoreError? {
    do {
        _ = try body()
        Issue.record("expected a DataStoreError with code \(code), but nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch let error as DataStoreError {
        #expect(error.code == code, "expected code \(code), got \(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected a DataStoreError with code \(code), got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// The bytes of a file, or `nil` when it does not exist.
func fileBytes(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { [UInt8]($0) }
}
