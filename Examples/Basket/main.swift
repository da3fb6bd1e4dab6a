// Basket: scratch edits in a child data store, merged when the customer confirms and thrown away
// when they cancel — the child-store example of JustPersist, on Persist.
import Persist

func show(_ title: String, _ store: any DataStore) throws {
    let lines = try store.read { accessor in try accessor.getAll(BasketLine.self) }
    print("\(title): \(lines.isEmpty ? "empty" : lines.map(\.summary).joined(separator: "; "))")
}

let basket: any DataStore = InMemoryDataStore()
try basket.setup()

// 1. The customer configures a pizza over several steps, then confirms.
let pizza = try basket.makeChildDataStore()
try pizza.setup()
try pizza.writeSync { accessor in
    try accessor.insert(BasketLine(id: "line-1", product: "Margherita", size: .medium, extras: [], quantity: 1, unitPrice: 9))
}
try pizza.writeSync { accessor in
    let line = try accessor.mutableVersion(ofItem: Item(itemType: BasketLine.itemType, id: "line-1"))
    line?["extras"] = ["olives", "basil"]
}
try pizza.writeSync { accessor in
    guard var line = try accessor.getById(BasketLine.self, id: "line-1") else { return }
    line.size = .large
    line.unitPrice = 12
    line.quantity = 2
    try accessor.update(line)
}
try show("while configuring, the child sees", pizza)
try show("while configuring, the basket holds", basket)
try basket.merge(pizza)
try show("after confirming, the basket holds", basket)

// 2. The customer starts on a second item and cancels: the child is dropped, nothing changes.
do {
    let drink = try basket.makeChildDataStore()
    try drink.setup()
    try drink.writeSync { accessor in
        try accessor.insert(BasketLine(id: "line-2", product: "Lemonade", size: .small, extras: ["ice"], quantity: 1, unitPrice: 2.5))
    }
    try show("configuring a drink, the child sees", drink)
}
try show("after cancelling, the basket holds", basket)

// 3. The customer edits the pizza while a price update lands in the basket: merging with the
//    .fail policy reports the conflict and changes nothing; the app then lets the new price win.
let edit = try basket.makeChildDataStore()
try edit.setup()
try edit.writeSync { accessor in
    let line = try accessor.mutableVersion(ofItem: Item(itemType: BasketLine.itemType, id: "line-1"))
    line?["quantity"] = 3
}
try basket.writeSync { accessor in
    let line = try accessor.mutableVersion(ofItem: Item(itemType: BasketLine.itemType, id: "line-1"))
    line?["unitPrice"] = 11.5
}
do {
    try basket.merge(edit, policy: .fail)
} catch let error as DataStoreError where error.code == .conflict {
    print("merge refused: conflict on \(error.items.map(\.description).joined(separator: ", "))")
}
try show("after the refused merge, the basket holds", basket)
try basket.merge(edit, policy: .parentWins)
try show("after keeping the price update, the basket holds", basket)
try basket.tearDown()
