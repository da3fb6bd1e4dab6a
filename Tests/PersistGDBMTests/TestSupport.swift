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
