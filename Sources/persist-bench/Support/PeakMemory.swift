import Foundation
import Logging

/// The process's peak resident memory, from `/proc/self/status`, with a way to start counting anew.
enum PeakMemory {
    /// Peak resident set size so far (VmHWM), in MiB; 0 when the kernel does not report it.
    static func megabytes() -> Double {
        (highWaterKilobytes(of: nil) ?? 0) / 1024
    }

    /// The peak resident set size (VmHWM) of a process (this one when `nil`), in KiB.
    static func highWaterKilobytes(of pid: pid_t?) -> Double? {
        let path = pid.map { "/proc/\($0)/status" } ?? "/proc/self/status"
        guard let status = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return line.split(separator: " ").compactMap { Double($0) }.first
        }
        return nil
    }

    /// Resets the peak to the current resident size (Linux: writing 5 to /proc/self/clear_refs),
    /// after giving the allocator's free memory back to the system: the heaps of threads that
    /// earlier repetitions started and ended keep what they freed, which would otherwise count
    /// towards the next run's peak although no one uses it.
    static func reset() {
        trimHeap()
        let descriptor = open("/proc/self/clear_refs", O_WRONLY)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = "5".withCString { write(descriptor, $0, 1) }
    }
}

/// glibc's `malloc_trim(0)`, looked up at run time (its header is not in the Glibc module);
/// nothing where the C library has none.
private func trimHeap() {
    typealias Trim = @convention(c) (Int) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
    _ = unsafeBitCast(symbol, to: Trim.self)(0)
}

extension Logger {
    /// The stores' logger during benchmarks: warnings and errors only, so results stay readable.
    static var benchmark: Logger {
        var logger = Logger(label: "persist-bench")
        logger.logLevel = .warning
        return logger
    }
}
