import Persist

/// `unique <sqlite|gdbm> <path> [items]`: rotates the values of a unique index among the rows,
/// forever.
enum UniqueMode {
    static let usage = "unique <sqlite|gdbm> <path> [items]"

    static func run(_ arguments: [String]) throws {
        guard arguments.count >= 2, arguments.count <= 3 else { Worker.usage(usage) }
        let count = Worker.count(arguments, at: 2, default: 100, usage: usage)
        let store = try Worker.openStore(kind: arguments[0], path: arguments[1], durability: .normal, usage: usage)
        try store.writeSync { accessor in
            try accessor.ensureIndex(ofType: "Seat", on: ["code"], unique: true)
            guard try accessor.countItems(forRequest: DataStoreRequest(itemType: "Seat")) == 0 else { return }
            for index in 0..<count {
                try accessor.insert(Item(itemType: "Seat", id: .int(index), attributes: ["round": 0, "code": .int(index)]))
            }
        }
        var round = try Worker.lastRound(of: store, itemType: "Seat", attribute: "round")
        while true {
            round += 1
            let current = round
            try store.writeSync { accessor in
                // Every code moves to the next row: each row first gives its code up, then takes
                // the one its neighbour held.
                for index in 0..<count {
                    try accessor.save(Item(itemType: "Seat", id: .int(index), attributes: ["round": .int(current), "code": .int(-1 - index)]))
                }
                for index in 0..<count {
                    try accessor.save(Item(itemType: "Seat", id: .int(index),
                                           attributes: ["round": .int(current), "code": .int((index + current) % count)]))
                }
            }
            Worker.report(String(current))
        }
    }
}
