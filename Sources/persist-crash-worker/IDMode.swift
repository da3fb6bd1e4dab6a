import Foundation
import Persist

/// `ids <sqlite|gdbm|postgres> <path-or-url> <items>`: inserts items with generated identifiers, one
/// block each.
enum IDMode {
    static let usage = "ids <sqlite|gdbm|postgres> <path-or-url> <items>"

    static func run(_ arguments: [String]) throws {
        guard arguments.count == 3 else { Worker.usage(usage) }
        let count = Worker.count(arguments, at: 2, default: 1, usage: usage)
        let store = try Worker.openStore(kind: arguments[0], path: arguments[1], durability: .normal, usage: usage)
        for _ in 0..<count {
            let id = try store.writeSync { accessor in
                let ticket = try accessor.createItem(ofType: "Ticket", idGeneration: .nextInteger)
                ticket["by"] = .int(Int64(getpid()))
                return ticket.id
            }
            Worker.report(id.description)
        }
        try store.tearDown()
    }
}
