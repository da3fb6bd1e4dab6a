internal import CGDBM
import Foundation
import Persist

/// Turns GDBM's error codes into `DataStoreError`s that carry the code, GDBM's own text, the
/// operating system's text where there is one, and the file's path.
enum GDBMErrors {
    /// GDBM's text for an error code.
    static func text(_ code: Int32) -> String {
        guard let text = gdbm_strerror(code) else { return "GDBM error \(code)" }
        return String(cString: text)
    }

    /// The operating system's text for `errno` values.
    static func systemText(_ error: Int32) -> String {
        guard let text = strerror(error) else { return "system error \(error)" }
        return String(cString: text)
    }

    /// Whether an error code is one of GDBM's "the file is damaged or not a GDBM file" codes.
    static func isStructural(_ code: Int) -> Bool {
        switch code {
        case GDBM_BAD_MAGIC_NUMBER, GDBM_EMPTY_DATABASE, GDBM_BLOCK_SIZE_ERROR, GDBM_BYTE_SWAPPED,
            GDBM_BAD_FILE_OFFSET, GDBM_NEED_RECOVERY, GDBM_BAD_BUCKET, GDBM_BAD_HEADER, GDBM_BAD_AVAIL,
            GDBM_BAD_HASH_TABLE, GDBM_BAD_DIR_ENTRY, GDBM_BUCKET_CACHE_CORRUPTED, GDBM_BAD_HASH_ENTRY,
            GDBM_FILE_EOF, GDBM_DIR_OVERFLOW:
            return true
        default:
            return false
        }
    }

    /// The error for a failed GDBM call.
    ///
    /// - Parameters:
    ///   - code: GDBM's error code (`gdbm_errno` or `gdbm_last_errno`).
    ///   - systemError: the `errno` GDBM saw, or 0.
    ///   - path: the database file.
    ///   - action: what was being done, as a verb phrase ("open", "store a record in").
    static func error(code: Int32, systemError: Int32, path: String, action: String) -> DataStoreError {
        var engineMessage = text(code)
        if systemError != 0 { engineMessage += ": " + systemText(systemError) }
        let (kind, advice) = classify(code: Int(code), systemError: systemError)
        return DataStoreError(
            kind, "could not \(action) the GDBM file at \(path): \(engineMessage). \(advice)",
            path: path, engineCode: Int(code), engineMessage: engineMessage)
    }

    /// Whether a system error says the process may not write a file or folder.
    static func deniesWriting(_ systemError: Int32) -> Bool {
        systemError == EACCES || systemError == EPERM || systemError == EROFS
    }

    /// The error for a failed system call on a file the store writes beside the database at `path`
    /// (the journal, a replay copy): `readOnly` when the process may not write there, as when it
    /// may not write the database itself, else `io`.
    ///
    /// - Parameter failure: what failed, naming the file ("could not create the journal …").
    static func besideFile(_ systemError: Int32, _ failure: String, path: String) -> DataStoreError {
        let text = systemText(systemError)
        let advice = deniesWriting(systemError)
            ? "The process may not write in the folder of \(path), where write blocks keep their journal, or may "
                + "not write a file there; open the store with readOnly, or fix the permissions"
            : NoRoom.isNoRoom(systemError) ? NoRoom.advice : "Check the disk and the folder's permissions"
        return DataStoreError(deniesWriting(systemError) ? .readOnly : .io, "\(failure): \(text). \(advice)",
                              path: path, engineCode: Int(systemError), engineMessage: text)
    }

    /// The error for a file GDBM opened but flagged `GDBM_NEED_RECOVERY`.
    static func needsRecovery(path: String) -> DataStoreError {
        error(code: Int32(GDBM_NEED_RECOVERY), systemError: 0, path: path, action: "open")
    }

    private static func classify(code: Int, systemError: Int32) -> (DataStoreError.Code, String) {
        switch code {
        case GDBM_CANT_BE_READER, GDBM_CANT_BE_WRITER:
            return (.locked, "Another process (or another store in this process) holds the file; "
                + "close it there, or give the store a lock wait")
        case GDBM_NEED_RECOVERY:
            return (.corrupt, "The file was not closed cleanly by the program that last wrote it; "
                + "run GDBMDataStore.recover(path:) on it (it keeps a backup) and open it again")
        case GDBM_READER_CANT_STORE, GDBM_READER_CANT_DELETE, GDBM_READER_CANT_REORGANIZE:
            return (.readOnly, "The store was opened read-only; open it without readOnly to change it")
        case GDBM_ITEM_NOT_FOUND:
            return (.notFound, "The record does not exist")
        case GDBM_FILE_OPEN_ERROR:
            switch systemError {
            case ENOENT, ENOTDIR:
                return (.notFound, "Check the path, or let the store create the file")
            case _ where deniesWriting(systemError):
                return (.readOnly, "The process may not write the file; open it with readOnly, or fix its permissions")
            case EISDIR:
                return (.invalidArgument, "The path names a directory; give the path of the database file")
            default:
                return (.io, "Check the file and its directory")
            }
        case GDBM_FILE_SEEK_ERROR where systemError == EINVAL:
            // GDBM was sent to an offset past the end of the file: the file is cut short or damaged.
            return (.corrupt, "The file refers to data past its end: it was truncated or damaged; "
                + "GDBMDataStore.recover(path:) may rescue the records that remain")
        case GDBM_MALLOC_ERROR:
            return (.io, "The process ran out of memory")
        case _ where NoRoom.isNoRoom(systemError):
            return (.io, NoRoom.advice)
        default:
            if isStructural(code) {
                return (.corrupt, "The file is not a GDBM database or is damaged; "
                    + "if it is a damaged GDBM file, GDBMDataStore.recover(path:) may rescue its records")
            }
            return (.io, "Check the disk (space, permissions, hardware) and try again")
        }
    }
}
