import ArgumentParser
import Foundation
import Persist

/// Shows a migration's progress on standard error: a live bar on a terminal, plain lines otherwise.
final class ProgressDisplay {
    /// When to show progress.
    enum Mode: String, CaseIterable, ExpressibleByArgument {
        /// A live bar when standard error is a terminal, plain lines otherwise.
        case auto
        /// Always the live bar.
        case always
        /// Nothing.
        case never
    }

    private enum Style { case bar, lines, silent }

    private let style: Style
    private let write: (String) -> Void
    private var lastLine: UInt64 = 0
    private var drewBar = false
    private var lastPhase: MigrationProgress.Phase?
    private var lastProgress: MigrationProgress?

    init(mode: Mode, standardErrorIsTerminal: Bool, write: @escaping (String) -> Void) {
        switch mode {
        case .never: style = .silent
        case .always: style = .bar
        case .auto: style = standardErrorIsTerminal ? .bar : .lines
        }
        self.write = write
    }

    func update(_ progress: MigrationProgress) {
        switch style {
        case .silent:
            return
        case .bar:
            if progress.phase == .finished {
                finish()
                return
            }
            if let lastPhase, lastPhase != progress.phase, drewBar { write("\n") }
            write("\r\u{1B}[2K" + Self.bar(progress))
            drewBar = true
        case .lines:
            // A line when a phase ends (its last state), and every two seconds during a long one.
            let now = DispatchTime.now().uptimeNanoseconds
            if let previous = lastProgress, previous.phase != progress.phase {
                write(Self.line(previous) + "\n")
                lastLine = now
            } else if progress.phase != .finished, now - lastLine >= 2_000_000_000, lastProgress != nil {
                write(Self.line(progress) + "\n")
                lastLine = now
            }
            if lastProgress == nil { lastLine = now }
            lastProgress = progress
        }
        lastPhase = progress.phase
    }

    /// Ends the live bar's line.
    func finish() {
        if drewBar {
            write("\n")
            drewBar = false
        }
    }

    static func bar(_ progress: MigrationProgress) -> String {
        var text = "\(progress.phase.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) "
        if let expected = progress.expectedItems, expected > 0 {
            let fraction = min(Double(progress.items) / Double(expected), 1)
            let filled = Int(fraction * 30)
            text += "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: 30 - filled) + "] "
            text += "\(Int(fraction * 100))% ".leftPadded(5)
            text += "\(grouped(progress.items))/\(grouped(expected))"
        } else {
            text += grouped(progress.items)
        }
        text += "  \(grouped(Int(progress.itemsPerSecond))) items/s"
        if let left = progress.estimatedSecondsLeft { text += "  ETA \(clock(left))" }
        if !progress.itemType.isEmpty { text += "  \(progress.itemType)" }
        return text
    }

    static func line(_ progress: MigrationProgress) -> String {
        var text = "\(progress.phase.rawValue): \(progress.items)"
        if let expected = progress.expectedItems {
            let percent = expected > 0 ? Int(Double(progress.items) / Double(expected) * 100) : 100
            text += " of \(expected) items (\(percent)%)"
        } else {
            text += " items"
        }
        text += ", \(Int(progress.itemsPerSecond)) items/s"
        if !progress.itemType.isEmpty { text += ", \(progress.itemType)" }
        return text
    }

    /// `1234567` as `1,234,567`.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }

    /// Seconds as `m:ss` or `h:mm:ss`.
    static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded(.up))
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(secs))" : "\(minutes):\(twoDigits(secs))"
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
