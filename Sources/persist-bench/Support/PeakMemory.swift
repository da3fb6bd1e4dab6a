import Foundation
import Logging

/// The process's peak resident memory, from `/proc/self/status`, with a way to start counting anew.
enum PeakMemory {
    /// Peak resident set size so far (VmHWM), in MiB; 0 when the kernel does not report it.
    static func megabytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let kilobytes = line.split(separator: " ").compactMap { Double($0) }.first ?? 0
            return kilobytes / 1024
        }
        return 0
    }

    /// Resets the peak to the current resident size (Linux: writing 5 to /proc/self/clear_refs).
    static func reset() {
        let descriptor = open("/proc/self/clear_refs", O_WRONLY)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = "5".withCString { write(descriptor, $0, 1) }
    }
}

extension Logger {
    /// The stores' logger during benchmarks: warnings and errors only, so results stay readable.
    static var benchmark: Logger {
        var logger = Logger(label: "persist-bench")
        logger.logLevel = .warning
        return logger
    }
}
