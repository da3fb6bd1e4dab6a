import Foundation
import Persist
import Testing

/// Items, values and identifiers: creating, inserting, saving, deleting, round-tripping.
enum ItemTests {
    static let all: [ConformanceTest] = [
        ConformanceTest("createItem(ofType:) makes a UUID-string identifier and saves without a save call",
                        group: .items) { context in
            let store = try context.makeStore()
            let id: ItemID = try store.writeSync { accessor throws in
                let item = try accessor.createItem(ofType: "Restaurant")
                item["name"] = "Pizza Place"
                return item.id
            }
            guard case .string(let text) = id else {
                Issue.record("expected a string identifier, got \(id)")
                return
            }
            #expect(UUID(uuidString: text) != nil)
            let stored = try store.read { accessor in try accessor.item(ofType: "Restaurant", id: id) }
            #expect(stored?["name"] == "Pizza Place")
        },
        ConformanceTest("createItem(ofType:id:) with a stored identifier throws alreadyExists", group: .items) { context in
            let store = try context.makeStore()
            try seed(store, [Item(itemType: "Restaurant", id: "r1", attributes: ["name": "Old"])])
            let error = expectError(.alreadyExists) {
                try store.writeSync { accessor in _ = try accessor.createItem(ofType: "Restaurant", id: "r1") }
            }
            #expect(error?.items == [ItemReference(itemType: "Restaurant", id: "r1")])
            #expect(try allItems(store, "Restaurant").first?["name"] == "Old")
        },
        ConformanceTest("every Value kind and edge case round-trips losslessly", group: .items) { context in
            let store = try context.makeStore()
            // One attribute per kind (MixedKindTests puts them all in one attribute).
            let items = EdgeValues.all.enumerated().map { index, value in
                Item(itemType: "Edge", id: .int(Int64(index)), attributes: [value.kind.rawValue: value])
            }
            try seed(store, items)
            let stored = try allItems(store, "Edge")
            #expect(stored.count == items.count)
            for (expected, actual) in zip(items, stored) {
                #expect(expected == actual, "\(expected) came back as \(actual)")
            }
        },
        ConformanceTest("identifiers of every kind round-trip and stay distinct", group: .items) { context in
            let store = try context.makeStore()
            let ids: [ItemID] = [
                .int(5), .string("5"), .bytes([0x35]), .int(.min), .int(.max), .int(0), .string(""),
                .string("with\u{0}nul"), .string("𝄞 astral"), .bytes([]), .bytes([0, 255, 0]),
                .string("e\u{301}"), .string("\u{e9}"),
            ]
            try seed(store, ids.map { Item(itemType: "Key", id: $0, attributes: ["copy_\($0.value.kind)": $0.value]) })
            let stored = try allItems(store, "Key")
            #expect(stored.map(\.id) == ids.sorted())
            for item in stored {
                #expect(item["copy_\(item.id.value.kind)"] == item.id.value)
            }
            for id in ids {
                let found = try store.read { accessor in try accessor.item(ofType: "Key", id: id) }
                #expect(found?.id == id)
            }
        },
        ConformanceTest("setting an attribute to nil or .null removes it", group: .items) { context in
            let store = try context.makeStore()
            try seed(store, [Item(itemType: "Note", id: "n", attributes: ["a": 1, "b": 2, "c": 3])])
            try store.writeSync { accessor throws in
                let request = DataStoreRequest(itemType: "Note")
                guard let note = try accessor.firstMutableItem(forRequest: request) else {
                    Issue.record("the note is missing")
                    return
                }
                note["a"] = nil
                note["b"] = .null
            }
            let stored = try allItems(store, "Note")
            #expect(stored.first?.attributes == ["c": 3])
        },
        ConformanceTest("insert of a stored item throws alreadyExists and changes nothing", group: .items) { context in
            let store = try context.makeStore()
            let original = Item(itemType: "Note", id: "n", attributes: ["v": 1])
            try seed(store, [original])
            expectError(.alreadyExists) {
                try store.writeSync { accessor throws in
                    try accessor.insert(Item(itemType: "Note", id: "other", attributes: ["v": 2]))
                    try accessor.insert(Item(itemType: "Note", id: "n", attributes: ["v": 3]))
                }
            }
            #expect(try allItems(store, "Note") == [original])
        },
        ConformanceTest("save() inserts or replaces every attribute", group: .items) { context in
            let store = try context.makeStore()
            try seed(store, [Item(itemType: "Note", id: "n", attributes: ["a": 1, "b": "x"])])
            try store.writeSync { accessor throws in
                try accessor.save(Item(itemType: "Note", id: "n", attributes: ["b": "y", "c": true]))
                try accessor.save(Item(itemType: "Note", id: "m", attributes: ["a": 2]))
            }
            let stored = try allItems(store, "Note")
            #expect(stored == [
                Item(itemType: "Note", id: "m", attributes: ["a": 2]),
                Item(itemType: "Note", id: "n", attributes: ["b": "y", "c": true]),
            ])
        },
        ConformanceTest("delete(item:) reports whether the item existed", group: .items) { context in
            let store = try context.makeStore()
            let note = Item(itemType: "Note", id: "n")
            try seed(store, [note, Item(itemType: "Note", id: "m")])
            let results = try store.writeSync { accessor throws in
                (try accessor.delete(item: note), try accessor.delete(item: note),
                 try accessor.deleteItem(ofType: "Note", id: "missing"))
            }
            #expect(results.0 == true && results.1 == false && results.2 == false)
            #expect(try allItems(store, "Note").map(\.id) == ["m"])
        },
        ConformanceTest("deleteAllItems(ofType:) removes only that type and counts", group: .items) { context in
            let store = try context.makeStore()
            try seed(store, (0..<5).map { Item(itemType: "A", id: .int($0)) } + [Item(itemType: "B", id: "b")])
            let removed = try store.writeSync { accessor in try accessor.deleteAllItems(ofType: "A") }
            #expect(removed == 5)
            #expect(try allItems(store, "A").isEmpty)
            #expect(try allItems(store, "B").count == 1)
            let none = try store.writeSync { accessor in try accessor.deleteAllItems(ofType: "Unknown") }
            #expect(none == 0)
        },
        ConformanceTest("item(ofType:id:) finds stored items and returns nil otherwise", group: .items) { context in
            let store = try context.makeStore()
            let item = Item(itemType: "Note", id: 42, attributes: ["t": "x"])
            try seed(store, [item])
            try store.read { accessor throws in
                #expect(try accessor.item(ofType: "Note", id: 42) == item)
                #expect(try accessor.item(ofType: "Note", id: "42") == nil)
                #expect(try accessor.item(ofType: "Other", id: 42) == nil)
            }
        },
        ConformanceTest("itemTypes() lists the types holding items", group: .items) { context in
            let store = try context.makeStore()
            try seed(store, [Item(itemType: "b", id: 1), Item(itemType: "a", id: 1), Item(itemType: "Z", id: 1)])
            try store.writeSync { accessor in _ = try accessor.deleteItem(ofType: "Z", id: 1) }
            #expect(try store.read { accessor in try accessor.itemTypes() } == ["a", "b"])
        },
        ConformanceTest("hostile type and attribute names are stored safely", group: .items) { context in
            let store = try context.makeStore()
            let typeNames = HostileNames.typeNames
            let attributes = Dictionary(uniqueKeysWithValues: HostileNames.attributeNames.enumerated().map {
                ($1, Value.int(Int64($0)))
            })
            try seed(store, typeNames.map { Item(itemType: $0, id: "x", attributes: attributes) })
            for name in typeNames {
                let stored = try allItems(store, name)
                #expect(stored.count == 1 && stored.first?.attributes == attributes, "type \(String(reflecting: name))")
                var request = DataStoreRequest(itemType: name)
                request.filter = .attribute(HostileNames.attributeNames[1]) == 1
                request.sortDescriptors = [.descending(HostileNames.attributeNames[2])]
                #expect(try store.read { try $0.countItems(forRequest: request) } == 1)
                // Names of engines' hidden columns are attributes like any other.
                request.filter = .attribute("rowid") == (attributes["rowid"] ?? .null)
                    && .attribute("xmin") == (attributes["xmin"] ?? .null)
                request.sortDescriptors = [.ascending("ctid")]
                #expect(try store.read { try $0.countItems(forRequest: request) } == 1, "type \(String(reflecting: name))")
            }
        },
        ConformanceTest("empty or NUL-containing names throw invalidArgument", group: .items) { context in
            let store = try context.makeStore()
            expectError(.invalidArgument) { try store.writeSync { try $0.createItem(ofType: "") } }
            expectError(.invalidArgument) {
                try store.writeSync { try $0.insert(Item(itemType: "Note", id: "n", attributes: ["": 1])) }
            }
            expectError(.invalidArgument) {
                try store.writeSync { try $0.insert(Item(itemType: "No\u{0}te", id: "n")) }
            }
            expectError(.invalidArgument) {
                try store.writeSync { accessor throws in
                    let item = try accessor.createItem(ofType: "Note", id: "n")
                    item["bad\u{0}name"] = 1
                }
            }
            #expect(try allItems(store, "Note").isEmpty)
        },
        ConformanceTest("errors about a block's arguments name the store", group: .items) { context in
            let store = try context.makeStore()
            try seed(store, [Item(itemType: "Note", id: "n")])
            var negative = DataStoreRequest(itemType: "Note")
            negative.limit = -1
            let tooDeep = EdgeValues.deeplyNested(depth: BinaryValueCoding.maximumDepth + 1)
            let errors = [
                expectError(.invalidArgument) { try store.read { try $0.items(forRequest: negative) } },
                expectError(.invalidArgument) { try store.read { try $0.item(ofType: "", id: "n") } },
                expectError(.invalidArgument) { try store.writeSync { try $0.deleteItem(ofType: "", id: "n") } },
                expectError(.invalidArgument) {
                    try store.writeSync { try $0.insert(Item(itemType: "Note", id: "deep", attributes: ["v": tooDeep])) }
                },
                expectError(.invalidArgument) {
                    try store.writeSync { accessor in
                        let item = try accessor.createItem(ofType: "Note")
                        try item.set(1, forKey: "bad\u{0}name")
                    }
                },
                expectError(.alreadyExists) { try store.writeSync { try $0.createItem(ofType: "Note", id: "n") } },
            ]
            for error in errors {
                #expect(error?.path == store.location && error?.message.contains(store.location) == true,
                        "\(String(describing: error)) does not name \(store.location)")
            }
            #expect(try allItems(store, "Note").map(\.id) == ["n"])
        },
        ConformanceTest("a 16 MiB value round-trips", group: .items) { context in
            let store = try context.makeStore()
            var bytes = [UInt8](repeating: 0, count: 16 << 20)
            for index in stride(from: 0, to: bytes.count, by: 4099) { bytes[index] = UInt8(index % 251) }
            let text = String(repeating: "é𝄞x", count: 1 << 20)
            let item = Item(itemType: "Blob", id: "big", attributes: ["bytes": .bytes(bytes), "text": .string(text)])
            try seed(store, [item])
            #expect(try allItems(store, "Blob") == [item])
        },
    ]
}
