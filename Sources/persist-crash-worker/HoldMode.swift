import Foundation
import PersistGDBM

/// `gdbm-hold <path> <read-write|read-only>`: holds a GDBM file open until standard input closes.
enum HoldMode {
    static func run(_ arguments: [String]) throws {
        guard arguments.count == 2, ["read-write", "read-only"].contains(arguments[1]) else {
            Worker.usage("gdbm-hold <path> <read-write|read-only>")
        }
        let store = GDBMDataStore(path: arguments[0], options: .init(readOnly: arguments[1] == "read-only"))
        try store.setup()
        Worker.report("ready")
        _ = FileHandle.standardInput.readDataToEndOfFile()
        try store.tearDown()
    }
}
