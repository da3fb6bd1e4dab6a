import Logging
import Persist

/// Keeps every log line (level, message and metadata) for inspection.
///
///     let lines = Locked<[String]>([])
///     let logger = Logger(label: "test") { _ in RecordingLogHandler(lines: lines) }
package struct RecordingLogHandler: LogHandler {
    package let lines: Locked<[String]>
    package var metadata: Logger.Metadata = [:]
    package var metadataProvider: Logger.MetadataProvider?
    package var logLevel: Logger.Level = .trace

    /// A handler appending to `lines`.
    package init(lines: Locked<[String]>) {
        self.lines = lines
    }

    package func log(event: LogEvent) {
        lines.withLock { $0.append("\(event.level) \(event.message) \(event.metadata ?? [:]) \(metadata)") }
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
}
