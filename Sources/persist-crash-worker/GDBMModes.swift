import Foundation
import Persist
import PersistGDBM

/// The worker's GDBM modes.
enum GDBMModes {
    /// How many blocks' Log items stay in the store.
    static let logWindow: Int64 = 8

    /// Writes one line to standard output at once (no buffering survives a SIGKILL).
    static func report(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func usage(_ text: String) -> Never {
        FileHandle.standardError.write(Data("usage: persist-crash-worker \(text)\n".utf8))
        exit(64)
    }

    static func durability(_ text: String) -> Durability {
        guard let durability = Durability(rawValue: text) else { usage("gdbm-blocks <path> <normal|full> [items-per-block]") }
        return durability
    }

    /// `gdbm-blocks <path> <normal|full> [items-per-block]`
    static func writeBlocks(_ arguments: [String]) throws {
        guard arguments.count >= 2 else { usage("gdbm-blocks <path> <normal|full> [items-per-block]") }
        let perBlock = arguments.count > 2 ? Int64(arguments[2]) ?? 5 : 5
        let store = GDBMDataStore(path: arguments[0],
                                  options: .init(durability: durability(arguments[1]), lockWait: .seconds(10)))
        try store.setup()
        var sequence = try store.read { accessor in
            try accessor.item(ofType: "Current", id: 0)?["seq"]?.intValue
        } ?? 0
        while true {
            sequence += 1
            let block = sequence
            try store.writeSync { accessor in
                let blob = Value.bytes([UInt8](repeating: UInt8(truncatingIfNeeded: block), count: Int(block * 37 % 700)))
                for index in 0..<perBlock {
                    try accessor.save(Item(itemType: "Current", id: .int(index),
                                           attributes: ["seq": .int(block), "blob": blob]))
                    try accessor.insert(Item(itemType: "Log", id: .string("\(block)-\(index)"),
                                             attributes: ["seq": .int(block), "blob": blob]))
                    if block > logWindow {
                        try accessor.deleteItem(ofType: "Log", id: .string("\(block - logWindow)-\(index)"))
                    }
                }
            }
            report(String(block))
        }
    }

    /// `gdbm-hold <path> <read-write|read-only>`
    static func hold(_ arguments: [String]) throws {
        guard arguments.count == 2, ["read-write", "read-only"].contains(arguments[1]) else {
            usage("gdbm-hold <path> <read-write|read-only>")
        }
        let store = GDBMDataStore(path: arguments[0], options: .init(readOnly: arguments[1] == "read-only"))
        try store.setup()
        report("ready")
        _ = FileHandle.standardInput.readDataToEndOfFile()
        try store.tearDown()
    }
}
