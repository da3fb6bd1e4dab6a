import Persist

/// `blocks <sqlite|gdbm|postgres> <path-or-url> <normal|full> [items-per-block]`: write blocks, forever.
enum BlockMode {
    static let usage = "blocks <sqlite|gdbm|postgres> <path-or-url> <normal|full> [items-per-block]"

    static func run(_ arguments: [String]) throws {
        guard arguments.count >= 3, arguments.count <= 4, let durability = Durability(rawValue: arguments[2]) else {
            Worker.usage(usage)
        }
        let perBlock = Worker.count(arguments, at: 3, default: 5, usage: usage)
        let store = try Worker.openStore(kind: arguments[0], path: arguments[1], durability: durability, usage: usage)
        while true {
            // The block's number is read inside the block, under the store's write lock: on
            // PostgreSQL the last COMMIT of a killed predecessor may still land after this process
            // started, and a number read before the lock would be that block's again.
            let block = try store.writeSync { accessor -> Int64 in
                let block = (try accessor.item(ofType: "Current", id: 0)?["seq"]?.intValue ?? 0) + 1
                let blob = Value.bytes([UInt8](repeating: UInt8(truncatingIfNeeded: block), count: Int(block * 37 % 700)))
                for index in 0..<perBlock {
                    try accessor.save(Item(itemType: "Current", id: .int(index),
                                           attributes: ["seq": .int(block), "blob": blob]))
                    try accessor.insert(Item(itemType: "Log", id: .string("\(block)-\(index)"),
                                             attributes: ["seq": .int(block), "blob": blob]))
                    if block > Worker.window {
                        try accessor.deleteItem(ofType: "Log", id: .string("\(block - Worker.window)-\(index)"))
                    }
                }
                return block
            }
            Worker.report(String(block))
        }
    }
}
