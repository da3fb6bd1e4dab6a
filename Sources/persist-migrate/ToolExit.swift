import Persist

/// The tool's exit statuses, after BSD's sysexits.h.
enum ToolExit: Int32, Sendable {
    /// Done, and verified unless verification was turned off.
    case ok = 0
    /// The command line is wrong (EX_USAGE).
    case usage = 64
    /// An item cannot be decoded, cannot be stored in the target, or verification found a difference (EX_DATAERR).
    case dataError = 65
    /// The source is missing or cannot be read as a store of its kind (EX_NOINPUT).
    case sourceUnavailable = 66
    /// A PostgreSQL server cannot be reached, refused the connection or lost it (EX_UNAVAILABLE).
    case unavailable = 69
    /// Something went wrong that is not the input's fault (EX_SOFTWARE).
    case software = 70
    /// The target cannot be created, or already holds the items with `--if-exists fail` (EX_CANTCREAT).
    case cannotCreate = 73
    /// Reading or writing failed (EX_IOERR).
    case ioError = 74
    /// A store is locked by another process, or the source changed while it was copied (EX_TEMPFAIL).
    case locked = 75
    /// A PostgreSQL server refused the URL's user or password (EX_NOPERM).
    case authentication = 77
    /// Stopped by SIGINT (128 + 2), the target left as it was.
    case interrupted = 130
    /// Stopped by SIGTERM (128 + 15), the target left as it was.
    case terminated = 143

    /// Where a migration stood when an error happened.
    enum Stage: Sendable {
        case openingSource, openingTarget, copying, finishing
    }

    /// The status for an error raised at `stage`, given the paths of the source and of the target
    /// (including its staged copy) to tell which side failed.
    static func status(for error: any Error, at stage: Stage, sourcePaths: [String], targetPaths: [String]) -> ToolExit {
        if let failure = error as? ToolFailure { return failure.exit }
        guard let error = error as? DataStoreError else { return .software }
        if let status = serverStatus(for: error, sourcePaths: sourcePaths) { return status }
        let side: Side
        if let path = error.path, sourcePaths.contains(path) {
            side = .source
        } else if let path = error.path, targetPaths.contains(path) {
            side = .target
        } else {
            side = stage == .openingSource ? .source : .target
        }
        switch error.code {
        case .locked:
            return .locked
        case .alreadyExists:
            return .cannotCreate
        case .typeMismatch:
            return .dataError
        case .invalidArgument:
            // Opening, it is a path no store can use (a directory); later, an item the target refuses.
            switch stage {
            case .openingSource: return .sourceUnavailable
            case .openingTarget: return .cannotCreate
            case .copying, .finishing: return .dataError
            }
        case .io:
            if stage == .openingSource { return .sourceUnavailable }
            // A target that found no room to write (a full disk, a file size limit) could be made
            // with room: an I/O error, as when the copy's items find none, not a target that
            // cannot be created.
            return stage == .openingTarget && !NoRoom.reported(by: error) ? .cannotCreate : .ioError
        case .corrupt:
            if side == .source { return stage == .openingSource ? .sourceUnavailable : .dataError }
            return stage == .openingTarget ? .cannotCreate : .dataError
        case .unsupported where stage == .copying || stage == .finishing:
            // A record of a newer format: an item that cannot be decoded.
            return .dataError
        case .notFound, .readOnly, .unsupported:
            return side == .source ? .sourceUnavailable : .cannotCreate
        case .conflict, .uniqueViolation, .referenceViolation:
            return .dataError
        case .misuse:
            return .software
        }
    }

    private enum Side { case source, target }

    /// The status of a PostgreSQL server's error, by its SQLSTATE (the start of `engineMessage`):
    /// no connection → 69, authentication → 77, a missing database → 66 for the source, 73 for the
    /// target. `nil` for other errors, which map by their code like every store's.
    private static func serverStatus(for error: DataStoreError, sourcePaths: [String]) -> ToolExit? {
        guard let path = error.path, path.hasPrefix("postgresql://"), let message = error.engineMessage,
              message.count >= 6, message.dropFirst(5).first == ":" else { return nil }
        let state = String(message.prefix(5))
        switch state {
        case "28P01", "28000":
            return .authentication
        case "3D000":
            return sourcePaths.contains(path) ? .sourceUnavailable : .cannotCreate
        case "57P01", "57P02", "57P03":
            return .unavailable
        case _ where state.hasPrefix("08"):
            return .unavailable
        default:
            return nil
        }
    }
}

/// A failure the tool itself diagnoses (a store it cannot recognise, a source that needs
/// recovery), with its exit status, message and the hint that fits it.
struct ToolFailure: Error, CustomStringConvertible {
    let exit: ToolExit
    /// A short name for `--json`, like the library's error codes.
    let code: String
    let message: String
    let hint: String?

    init(_ exit: ToolExit, code: String, _ message: String, hint: String? = nil) {
        self.exit = exit
        self.code = code
        self.message = message
        self.hint = hint
    }

    var description: String { message }
}
