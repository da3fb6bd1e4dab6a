import Foundation

/// A running product of the package (a worker, a tool), whose standard output is collected line by
/// line while it runs, so that a test can wait for progress and kill it at a chosen moment.
public final class ChildProcess: @unchecked Sendable {
    // @unchecked Sendable: `output` and `finished` are only used while `condition` is locked.
    private let process = Process()
    private let input = Pipe()
    private let outputPipe = Pipe()
    private let errorPipe = Pipe()
    private let condition = NSCondition()
    private var output: [UInt8] = []
    private var finished = false

    /// The folder holding the built products: the test bundle's own folder.
    public static var productsDirectory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    /// Starts the product `product` (an executable built beside the tests) with `arguments`.
    public init(product: String = "persist-crash-worker", _ arguments: [String]) throws {
        process.executableURL = Self.productsDirectory.appendingPathComponent(product)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        try process.run()
        let reading = outputPipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let data = reading.availableData
                condition.lock()
                if data.isEmpty { finished = true } else { output.append(contentsOf: data) }
                condition.broadcast()
                condition.unlock()
                if data.isEmpty { return }
            }
        }
    }

    /// The complete lines printed so far (a line cut off by a kill is left out).
    public var lines: [String] {
        condition.lock()
        defer { condition.unlock() }
        guard let end = output.lastIndex(of: UInt8(ascii: "\n")) else { return [] }
        return String(decoding: output[..<end], as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Waits until at least `count` complete lines were printed; `false` on timeout or exit.
    public func waitForLines(_ count: Int, timeout: TimeInterval = 60) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while output.filter({ $0 == UInt8(ascii: "\n") }).count < count {
            if finished || !condition.wait(until: deadline) { return false }
        }
        return true
    }

    /// Kills the worker with SIGKILL and waits until it is gone and its output is read.
    public func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        finish()
    }

    /// Sends `signal` (SIGINT, SIGTERM) and waits until the process is gone and its output is read.
    public func signal(_ signal: Int32) {
        Foundation.kill(process.processIdentifier, signal)
        finish()
    }

    /// Waits until the process exits on its own or `timeout` seconds pass.
    public func waitForExit(timeout: TimeInterval) {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
    }

    /// How the process ended, once it has: its exit status, or `nil` when a signal killed it.
    public var exitStatus: Int32? {
        process.terminationReason == .exit ? process.terminationStatus : nil
    }

    /// Closes the worker's standard input (a holding worker then exits) and waits for it.
    public func closeInputAndWait() {
        try? input.fileHandleForWriting.close()
        finish()
    }

    private func finish() {
        process.waitUntilExit()
        condition.lock()
        while !finished { condition.wait() }
        condition.unlock()
    }

    /// What the worker wrote to standard error (after it exited).
    public var errorOutput: String {
        String(decoding: errorPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    deinit {
        if process.isRunning {
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
