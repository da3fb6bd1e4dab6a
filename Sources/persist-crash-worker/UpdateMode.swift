import Persist

/// `update <sqlite|gdbm> <path> [items]`: set-based updates of every row, forever.
enum UpdateMode {
    static let usage = "update <sqlite|gdbm> <path> [items]"

    static func run(_ arguments: [String]) throws {
        guard arguments.count >= 2, arguments.count <= 3 else { Worker.usage(usage) }
        let count = Worker.count(arguments, at: 2, default: 200, usage: usage)
        let store = try Worker.openStore(kind: arguments[0], path: arguments[1], durability: .normal, usage: usage)
        let rows = DataStoreRequest(itemType: "Row")
        try store.writeSync { accessor in
            try accessor.ensureIndex(ofType: "Row", on: ["round"], unique: false)
            guard try accessor.countItems(forRequest: rows) == 0 else { return }
            for index in 0..<count {
                try accessor.insert(Item(itemType: "Row", id: .int(index), attributes: ["round": 0, "slot": .int(index)]))
            }
        }
        var round = try Worker.lastRound(of: store, itemType: "Row", attribute: "round")
        while true {
            round += 1
            let current = round
            try store.writeSync { accessor in
                try accessor.updateItems(forRequest: rows, setting: ["round": .int(current)])
            }
            Worker.report(String(current))
        }
    }
}
