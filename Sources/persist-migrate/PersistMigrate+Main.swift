import ArgumentParser
import Foundation

extension PersistMigrate {
    /// The argument parser's `main`, except that a failure's message is printed without the
    /// password of any URL on the command line (see ``PasswordRedaction``), and that a usage
    /// error with `--json` prints the summary with its `error` too, as every other failure does.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let status = exitCode(for: error)
            // --help and the like: printed as the parser prints them, quoting nothing typed.
            if status == .success { exit(withError: error) }
            let arguments = CommandLine.arguments
            let message = fullMessage(for: error)
            if !message.isEmpty {
                if status.rawValue == ToolExit.usage.rawValue, jsonRequested(arguments),
                   let json = try? usageSummary(PasswordRedaction.redact(Self.message(for: error), arguments: arguments))
                    .json() {
                    print(json)
                }
                FileHandle.standardError.write(Data((PasswordRedaction.redact(message, arguments: arguments) + "\n").utf8))
            }
            Foundation.exit(status.rawValue)
        }
    }

    /// Whether `--json` is among the options (before a `--` that ends them).
    private static func jsonRequested(_ arguments: [String]) -> Bool {
        arguments.dropFirst().prefix { $0 != "--" }.contains("--json")
    }

    /// The summary of a run refused for its command line: the stores as far as they were named.
    private static func usageSummary(_ message: String) -> MigrationSummary {
        let command = (try? parseAsRoot()) as? PersistMigrate
        let named = command.flatMap { try? $0.resolver().names() }
        return MigrationSummary(
            source: store(nil, named: named?.source), target: store(nil, named: named?.target),
            dryRun: command?.dryRun ?? false, report: nil, seconds: 0, notes: [], exit: .usage,
            error: MigrationSummary.Failure(code: "usage", message: message,
                                            hint: "run persist-migrate --help for the ways to name stores and the options"))
    }
}
