import ArgumentParser
import Foundation

extension PersistMigrate {
    /// The argument parser's `main`, except that a failure's message is printed without the
    /// password of any URL on the command line (see ``PasswordRedaction``).
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let status = exitCode(for: error)
            // --help and the like: printed as the parser prints them, quoting nothing typed.
            if status == .success { exit(withError: error) }
            let message = fullMessage(for: error)
            if !message.isEmpty {
                let shown = PasswordRedaction.redact(message, arguments: CommandLine.arguments)
                FileHandle.standardError.write(Data((shown + "\n").utf8))
            }
            Foundation.exit(status.rawValue)
        }
    }
}
