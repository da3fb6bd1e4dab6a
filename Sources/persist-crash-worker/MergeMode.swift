import Persist

/// `merge <sqlite|gdbm> <path> [items-per-round]`: child-store merges, forever.
enum MergeMode {
    static let usage = "merge <sqlite|gdbm> <path> [items-per-round]"

    static func run(_ arguments: [String]) throws {
        guard arguments.count >= 2, arguments.count <= 3 else { Worker.usage(usage) }
        let perRound = Worker.count(arguments, at: 2, default: 50, usage: usage)
        let store = try Worker.openStore(kind: arguments[0], path: arguments[1], durability: .normal, usage: usage)
        var round = try Worker.lastRound(of: store, itemType: "Latest", attribute: "round")
        while true {
            round += 1
            let current = round
            let child = try store.makeChildDataStore()
            try child.setup()
            try child.writeSync { accessor in
                for index in 0..<perRound {
                    try accessor.insert(Item(itemType: "Batch", id: .string("\(current)-\(index)"),
                                             attributes: ["round": .int(current), "index": .int(index)]))
                    if current > Worker.window {
                        try accessor.deleteItem(ofType: "Batch", id: .string("\(current - Worker.window)-\(index)"))
                    }
                }
                try accessor.save(Item(itemType: "Latest", id: 0, attributes: ["round": .int(current)]))
            }
            try store.merge(child)
            Worker.report(String(current))
            try child.tearDown()
        }
    }
}
