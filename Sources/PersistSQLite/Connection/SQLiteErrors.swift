internal import CSQLite
import Foundation
import Persist

/// Turns SQLite result codes into `DataStoreError`s that name the file, say what to do, and keep
/// SQLite's own code and message.
enum SQLiteErrors {
    /// `SQLITE_READONLY_ROLLBACK`, which the C module does not export: a hot journal (left by a
    /// writer that stopped mid-transaction) that a read-only connection cannot roll back.
    static let hotJournal = SQLITE_READONLY | 3 << 8

    /// The error for a failed SQLite call.
    ///
    /// - Parameters:
    ///   - code: the (extended) result code.
    ///   - message: SQLite's message (`sqlite3_errmsg`).
    ///   - path: the database file.
    ///   - operation: what the store was doing, as a phrase: "opening the database".
    ///   - creating: whether SQLite was asked to create the file if it was missing.
    ///   - readOnly: whether the file was opened read-only (which never creates it).
    ///   - systemError: the `errno` of SQLite's last failed system call (`sqlite3_system_errno`), or 0.
    ///     For an input/output error or a full database, its text follows SQLite's message, which
    ///     says only "disk I/O error" for a file that reached the file size limit, or a `-shm` file
    ///     that cannot grow on a full disk.
    static func error(code: Int32, message: String, path: String, operation: String, creating: Bool = false,
                      readOnly: Bool = false, systemError: Int32 = 0) -> DataStoreError {
        var (kind, advice) = classify(code: code, message: message, path: path, creating: creating, readOnly: readOnly)
        var engineMessage = message
        if systemError != 0, code & 0xFF == SQLITE_IOERR || code & 0xFF == SQLITE_FULL {
            engineMessage += ": " + String(cString: strerror(systemError))
            if NoRoom.isNoRoom(systemError) {
                (kind, advice) = (.io, NoRoom.advice + ", and try again: nothing of the write was kept.")
            }
        }
        return DataStoreError(
            kind, "\(operation) failed for the SQLite database at \(path): \(engineMessage). \(advice)",
            path: path, engineCode: Int(code), engineMessage: engineMessage)
    }

    private static func classify(
        code: Int32, message: String, path: String, creating: Bool, readOnly: Bool
    ) -> (DataStoreError.Code, String) {
        switch code & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED, SQLITE_PROTOCOL:
            return (.locked, "The lock it needs was not free within the busy timeout: another connection or "
                + "process held it that long, or several took it in turn (SQLite does not queue waiters); "
                + "retry later, or raise SQLiteDataStore.Options.busyTimeout.")
        case SQLITE_CORRUPT, SQLITE_NOTADB:
            return (.corrupt, "The file is damaged, truncated, or not an SQLite database; nothing was changed. "
                + "Check the path, or restore the file from a backup.")
        case SQLITE_FULL:
            return (.io, "The disk (or the database's size limit) is full; the write was rolled back. "
                + "Free some space and try again.")
        case SQLITE_IOERR where isDirectory(path):
            // Opened read-only, a directory opens, and the first read fails.
            return directoryError
        case SQLITE_IOERR, SQLITE_NOMEM:
            return (.io, "The operating system reported an input/output failure; the write was rolled back. "
                + "Check the disk and the file, then try again.")
        case SQLITE_READONLY where code == hotJournal:
            return (.readOnly, "The database has a hot journal, \(path)-journal: a program stopped in the middle "
                + "of writing it, and a read-only connection cannot roll that write back. Open the database once "
                + "for writing (a store without SQLiteDataStore.Options.readOnly, or the sqlite3 shell), which rolls "
                + "it back, then read it.")
        case SQLITE_READONLY:
            return (.readOnly, "The database cannot be written (a read-only file, directory or store); "
                + "open it with SQLiteDataStore.Options(readOnly: true), or fix its permissions.")
        case SQLITE_PERM, SQLITE_AUTH:
            return (.readOnly, "Access was denied; check the permissions of the file and its directory.")
        case SQLITE_CANTOPEN:
            return cantOpen(path: path, creating: creating, readOnly: readOnly)
        case SQLITE_CONSTRAINT:
            // A table keyed by its rowid has its PRIMARY KEY (of several columns, or a REAL one)
            // as a uniqueness of its columns, which the writer names (see `SQLiteWriter.naming`).
            if code == persist_sqlite_constraint_primarykey() || code == persist_sqlite_constraint_rowid() {
                return (.alreadyExists, "An item with this identifier is already stored.")
            }
            // The key of a table the store created is a column with a unique index.
            if code == persist_sqlite_constraint_unique(), message.hasSuffix("." + DatabaseSchema.createdKeyColumn) {
                return (.alreadyExists, "An item with this identifier is already stored.")
            }
            if code == persist_sqlite_constraint_unique() {
                return (.uniqueViolation, "Another item already holds the same values for a unique index of the table; "
                    + "nothing of the write was stored.")
            }
            if code == SQLITE_CONSTRAINT | (3 << 8) {
                return (.referenceViolation, "A foreign key of the database refused the change: a row would refer to "
                    + "a row that does not exist, or a deleted row is still referred to (RESTRICT); nothing of it was stored.")
            }
            if code == persist_sqlite_constraint_datatype() {
                return (.typeMismatch, "The table's declared column types reject this value.")
            }
            return (.invalidArgument, "A constraint of the table rejected the change; fix the values, "
                + "or change the table's constraints.")
        case SQLITE_ERROR:
            return (.invalidArgument, "SQLite refused the statement (too many columns, a filter nested too deeply, "
                + "or a name it does not accept).")
        case SQLITE_MISMATCH:
            return (.typeMismatch, "The value does not fit the column (an INTEGER PRIMARY KEY takes integers only).")
        case SQLITE_TOOBIG:
            return (.invalidArgument, "The value is larger than SQLite's limit for one value or row.")
        case SQLITE_MISUSE, SQLITE_RANGE:
            return (.misuse, "The SQLite library was used in a way it does not allow.")
        case SQLITE_NOLFS:
            return (.unsupported, "The system does not support files this large.")
        default:
            return (.io, "SQLite could not complete the operation.")
        }
    }

    /// The system error behind a failed SQLite call on `database`: what `sqlite3_system_errno`
    /// reports, or else `errno` as the caller read it right after the call when it says there was
    /// no room to write (SQLite 3.40 reports 0 for a write past the file size limit, where the
    /// failed `pwrite` left `EFBIG` in `errno`). Any other stale `errno` is not trusted.
    static func systemError(of database: OpaquePointer?, errno captured: Int32) -> Int32 {
        let reported = database.map { sqlite3_system_errno($0) } ?? 0
        if reported != 0 { return reported }
        return NoRoom.isNoRoom(captured) ? captured : 0
    }

    /// The extended result code of a `PRIMARY KEY` constraint violation.
    static let primaryKeyConstraint = Int(persist_sqlite_constraint_primarykey())

    private static let directoryError = (DataStoreError.Code.invalidArgument,
                                         "The path is a directory; give the path of a database file inside it.")

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Why SQLite could not open `path`; `creating` when it was asked to create a missing file,
    /// `readOnly` when it opened the file read-only (and so could not create it, whatever
    /// `createIfMissing` says).
    private static func cantOpen(path: String, creating: Bool, readOnly: Bool) -> (DataStoreError.Code, String) {
        if FileManager.default.fileExists(atPath: path) {
            if isDirectory(path) { return directoryError }
            return (.io, "The file exists but cannot be opened; check its permissions and those of its directory.")
        }
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty && !FileManager.default.fileExists(atPath: directory) {
            return (.notFound, "Its directory does not exist; create the directory first.")
        }
        if !directory.isEmpty && !isDirectory(directory) {
            return (.notFound, "A part of the path before the file's name is a file, not a directory.")
        }
        if creating, access(directory.isEmpty ? "." : directory, W_OK) != 0 {
            return (.readOnly, "Its directory cannot be written; check the directory's permissions.")
        }
        if readOnly {
            return (.notFound, "No file exists at this path; check the path. A read-only store never creates "
                + "its database: open it once without SQLiteDataStore.Options.readOnly to create it.")
        }
        return (.notFound, "No file exists at this path; check the path, or set "
            + "SQLiteDataStore.Options.createIfMissing to create a new database.")
    }
}
