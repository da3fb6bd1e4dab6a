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
        var sequence = try Worker.lastRound(of: store, itemType: "Current", attribute: "seq")
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
                    if block > Worker.window {
                        try accessor.deleteItem(ofType: "Log", id: .string("\(block - Worker.window)-\(index)"))
                    }
                }
            }
            Worker.report(String(block))
        }
    }
}
