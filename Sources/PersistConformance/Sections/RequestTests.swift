import Foundation
import Persist
import Testing

/// Requests: filters, sorting, offset and limit, counting, streaming, and invalid requests.
enum RequestTests {
    static let restaurants: [Item] = [
        Item(itemType: "Restaurant", id: "r1", attributes: ["name": "Pizza Place", "rating": 4, "open": true, "city": "Leeds"]),
        Item(itemType: "Restaurant", id: "r2", attributes: ["name": "Noodle Bar", "rating": 5, "open": false, "city": "York"]),
        Item(itemType: "Restaurant", id: "r3", attributes: ["name": "Pizza Express", "rating": 3, "city": "Leeds"]),
        Item(itemType: "Restaurant", id: "r4", attributes: ["name": "Curry House", "rating": 4.5, "open": true]),
        Item(itemType: "Restaurant", id: "r5", attributes: ["name": "Café", "rating": 4, "open": true, "city": "York"]),
    ]

    static func ids(_ store: any DataStore, _ configure: (inout DataStoreRequest) -> Void) throws -> [ItemID] {
        var request = DataStoreRequest(itemType: "Restaurant")
        configure(&request)
        return try store.read { accessor in try accessor.items(forRequest: request).map(\.id) }
    }

    static let all: [ConformanceTest] = [
        ConformanceTest("setFilter(whereAttribute:equalsValue:) selects equal values", group: .requests) { context in
            let store = try context.makeStore()
            try seed(store, restaurants)
            #expect(try ids(store) { $0.setFilter(whereAttribute: "city", equalsValue: "Leeds") } == ["r1", "r3"])
            #expect(try ids(store) { $0.setFilter(whereAttribute: "rating", equalsValue: 4) } == ["r1", "r5"])
            #expect(try ids(store) { $0.setFilter(whereAttribute: "rating", equalsValue: 4.5) } == ["r4"])
        },
        ConformanceTest("setSort(byKey:ascending:) orders items and breaks ties by identifier", group: .requests) { context in
            let store = try context.makeStore()
            try seed(store, restaurants)
            #expect(try ids(store) { $0.setSort(byKey: "rating", ascending: false) } == ["r2", "r4", "r1", "r5", "r3"])
            #expect(try ids(store) { $0.setSort(byKey: "rating", ascending: true) } == ["r3", "r1", "r5", "r4", "r2"])
            #expect(try ids(store) { $0.setSort(byKey: "city", ascending: true) } == ["r4", "r1", "r3", "r2", "r5"])
            #expect(try ids(store) { $0.setSort(byKey: "city", ascending: false) } == ["r2", "r5", "r1", "r3", "r4"])
        },
        ConformanceTest("several sort descriptors apply in order", group: .requests) { context in
            let store = try context.makeStore()
            try seed(store, restaurants)
            #expect(try ids(store) { $0.sortDescriptors = [.ascending("city"), .descending("rating")] }
                == ["r4", "r1", "r3", "r2", "r5"])
            #expect(try ids(store) { $0.sortDescriptors = [.descending("open"), .ascending("name")] }
                == ["r5", "r4", "r1", "r2", "r3"])
        },
        ConformanceTest("offset and limit page through the ordered results", group: .requests) { context in
            let store = try context.makeStore()
            try seed(store, restaurants)
            #expect(try ids(store) { $0.offset = 1; $0.limit = 2 } == ["r2", "r3"])
            #expect(try ids(store) { $0.limit = 0 } == [])
            #expect(try ids(store) { $0.offset = 5 } == [])
            #expect(try ids(store) { $0.offset = 50; $0.limit = 3 } == [])
            #expect(try ids(store) { $0.offset = 3; $0.limit = 10 } == ["r4", "r5"])
        },
        ConformanceTest("offsets and limits up to Int.max page without overflowing", group: .requests) { context in
            let store = try context.makeStore()
            try seed(store, restaurants)
            #expect(try ids(store) { $0.offset = 1; $0.limit = .max } == ["r2", "r3", "r4", "r5"])
            #expect(try ids(store) { $0.offset = 4; $0.limit = .max - 1 } == ["r5"])
            #expect(try ids(store) { $0.offset = .max } == [])
            #expect(try ids(store) { $0.offset = .max; $0.limit = .max } == [])
            // Sorted too: a store that keeps the best `offset + limit` while it scans must not overflow.
            let byRating: (inout DataStoreRequest) -> Void = { $0.setSort(byKey: "rating", ascending: false) }
            #expect(try ids(store) { byRating(&$0); $0.offset = 1; $0.limit = .max } == ["r4", "r1", "r5", "r3"])
            #expect(try ids(store) { byRating(&$0); $0.limit = .max / 2 + 1 } == ["r2", "r4", "r1", "r5", "r3"])
            #expect(try ids(store) { byRating(&$0); $0.offset = .max / 2; $0.limit = .max / 2 + 2 } == [])
            try store.read { accessor throws in
                let request = DataStoreRequest(itemType: "Restaurant", offset: 2, limit: .max)
                #expect(try accessor.countItems(forRequest: request) == 3)
                #expect(try accessor.firstItem(forRequest: request)?.id == "r3")
            }
        },
        ConformanceTest("countItems and firstItem respect filter, sort, offset and limit", group: .requests) { context in
            let store = try context.makeStore()
            try seed(store, restaurants)
            try store.read { accessor throws in
                var request = DataStoreRequest(itemType: "Restaurant")
                request.filter = .attribute("rating") >= 4
                #expect(try accessor.countItems(forRequest: request) == 4)
                request.offset = 1
                request.limit = 2
                #expect(try accessor.countItems(forRequest: request) == 2)
                request.offset = 3
                #expect(try accessor.countItems(forRequest: request) == 1)
                request.setSort(byKey: "rating", ascending: false)
                request.offset = 1
                #expect(try accessor.firstItem(forRequest: request)?.id == "r4")
                request.limit = 0
                #expect(try accessor.firstItem(forRequest: request) == nil)
            }
        },
        ConformanceTest("a request for an unknown type finds nothing", group: .requests) { context in
            let store = try context.makeStore()
            try seed(store, restaurants)
            try store.read { accessor throws in
                var request = DataStoreRequest(itemType: "Nothing")
                request.filter = .attribute("x") == 1
                request.sortDescriptors = [.ascending("y")]
                #expect(try accessor.items(forRequest: request).isEmpty)
                #expect(try accessor.countItems(forRequest: request) == 0)
                #expect(try accessor.firstItem(forRequest: request) == nil)
            }
        },
        ConformanceTest("negative offsets and limits and empty names throw invalidArgument", group: .requests) { context in
            let store = try context.makeStore()
            try store.read { accessor throws in
                var request = DataStoreRequest(itemType: "Restaurant")
                request.limit = -1
                expectError(.invalidArgument) { try accessor.items(forRequest: request) }
                request.limit = nil
                request.offset = -3
                expectError(.invalidArgument) { try accessor.countItems(forRequest: request) }
                expectError(.invalidArgument) { try accessor.items(forRequest: DataStoreRequest(itemType: "")) }
                expectError(.invalidArgument) { try accessor.firstItem(forRequest: DataStoreRequest(itemType: "")) }
                expectError(.invalidArgument) { try accessor.item(ofType: "", id: 1) }
                var badSort = DataStoreRequest(itemType: "Restaurant")
                badSort.sortDescriptors = [.ascending("")]
                expectError(.invalidArgument) { try accessor.items(forRequest: badSort) }
            }
        },
        ConformanceTest("comparisons: null, missing, mixed numbers and kinds", group: .requests) { context in
            let store = try context.makeStore()
            try seed(store, restaurants)
            #expect(try ids(store) { $0.filter = .attribute("open") == false } == ["r2"])
            #expect(try ids(store) { $0.filter = .attribute("open") != true } == ["r2", "r3"])
            #expect(try ids(store) { $0.filter = .attribute("open").isNil } == ["r3"])
            #expect(try ids(store) { $0.filter = .attribute("open") == .null } == ["r3"])
            #expect(try ids(store) { $0.filter = .attribute("city") != .null } == ["r1", "r2", "r3", "r5"])
            #expect(try ids(store) { $0.filter = .attribute("rating") > 4 } == ["r2", "r4"])
            #expect(try ids(store) { $0.filter = .attribute("rating") <= 4.0 } == ["r1", "r3", "r5"])
            #expect(try ids(store) { $0.filter = .attribute("rating") < "5" } == [])
            #expect(try ids(store) { $0.filter = .attribute("rating") == true } == [])
            #expect(try ids(store) { $0.filter = .attribute("city") < .null } == [])
            #expect(try ids(store) { $0.filter = .attribute("missing") != 1 } == ["r1", "r2", "r3", "r4", "r5"])
            #expect(try ids(store) { $0.filter = .attribute("rating").isIn([3, 4.5, "4"]) } == ["r3", "r4"])
            #expect(try ids(store) { $0.filter = .attribute("city").isIn(["York", .null]) } == ["r2", "r4", "r5"])
            #expect(try ids(store) { $0.filter = .attribute("rating").isIn([]) } == [])
        },
        ConformanceTest("string operators compare UTF-8 bytes, case-sensitively", group: .requests) { context in
            let store = try context.makeStore()
            try seed(store, restaurants)
            #expect(try ids(store) { $0.filter = .attribute("name").beginsWith("Pizza") } == ["r1", "r3"])
            #expect(try ids(store) { $0.filter = .attribute("name").beginsWith("pizza") } == [])
            #expect(try ids(store) { $0.filter = .attribute("name").endsWith("é") } == ["r5"])
            #expect(try ids(store) { $0.filter = .attribute("name").endsWith("e\u{301}") } == [])
            #expect(try ids(store) { $0.filter = .attribute("name").contains("o") } == ["r2", "r4"])
            #expect(try ids(store) { $0.filter = .attribute("name").contains("") } == ["r1", "r2", "r3", "r4", "r5"])
            #expect(try ids(store) { $0.filter = .attribute("rating").contains("4") } == [])
            #expect(try ids(store) { $0.filter = .attribute("name") > "Noodle" && .attribute("name") < "Pizza Q" }
                == ["r1", "r2", "r3"])
            #expect(try ids(store) { $0.setSort(byKey: "name", ascending: true) } == ["r5", "r4", "r2", "r3", "r1"])
        },
        ConformanceTest("objects whose keys differ only in Unicode normalization are different values", group: .requests) { context in
            let store = try context.makeStore()
            let composed: Value = ["\u{e9}": 1]
            let decomposed: Value = ["e\u{301}": 1]
            try seed(store, [
                Item(itemType: "Restaurant", id: "r1", attributes: ["menu": composed]),
                Item(itemType: "Restaurant", id: "r2", attributes: ["menu": decomposed]),
            ])
            #expect(try ids(store) { $0.filter = .attribute("menu") == composed } == ["r1"])
            #expect(try ids(store) { $0.filter = .attribute("menu") == decomposed } == ["r2"])
            #expect(try ids(store) { $0.filter = .attribute("menu") != composed } == ["r2"])
            #expect(try ids(store) { $0.filter = .attribute("menu").isIn([decomposed]) } == ["r2"])
            let keys = try store.read { accessor in try accessor.items(forRequest: DataStoreRequest(itemType: "Restaurant")) }
                .map { $0["menu"]?.objectValue?.keys.map { Array($0.utf8) } ?? [] }
            #expect(keys == [[[0xC3, 0xA9]], [[0x65, 0xCC, 0x81]]])
        },
        ConformanceTest("&&, || and ! combine as two-valued logic", group: .requests) { context in
            let store = try context.makeStore()
            try seed(store, restaurants)
            #expect(try ids(store) { $0.filter = .attribute("rating") >= 3 && !(.attribute("open") == false) }
                == ["r1", "r3", "r4", "r5"])
            #expect(try ids(store) { $0.filter = .attribute("city") == "York" || .attribute("rating") < 4 }
                == ["r2", "r3", "r5"])
            #expect(try ids(store) { $0.filter = !(.attribute("city") == "Leeds") } == ["r2", "r4", "r5"])
            #expect(try ids(store) { $0.filter = !(.attribute("rating") > 100) } == ["r1", "r2", "r3", "r4", "r5"])
        },
        ConformanceTest("forEachItem streams every item in request order", group: .requests) { context in
            let store = try context.makeStore()
            try seed(store, (0..<500).map { Item(itemType: "Row", id: .int($0), attributes: ["g": .int($0 % 7)]) })
            var request = DataStoreRequest(itemType: "Row")
            request.sortDescriptors = [.descending("g")]
            request.offset = 10
            let expected = try store.read { try $0.items(forRequest: request) }
            var streamed: [Item] = []
            try store.read { accessor throws in
                try accessor.forEachItem(forRequest: request) { streamed.append($0) }
            }
            #expect(streamed == expected)
            #expect(streamed.count == 490)
            #expect(throws: DeliberateFailure(tag: 9)) {
                try store.read { accessor throws in
                    try accessor.forEachItem(forRequest: request) { _ in throw DeliberateFailure(tag: 9) }
                }
            }
        },
        ConformanceTest("unspecified ordering returns the same items as sorted ordering", group: .requests) { context in
            let store = try context.makeStore()
            try seed(store, (0..<300).map { Item(itemType: "Row", id: .int($0 * 7 % 300), attributes: ["v": .int($0)]) })
            var request = DataStoreRequest(itemType: "Row")
            request.filter = .attribute("v") >= 50
            let sorted = try store.read { try $0.items(forRequest: request) }
            request.ordering = .unspecified
            let unordered = try store.read { try $0.items(forRequest: request) }
            #expect(Set(unordered) == Set(sorted))
            #expect(unordered.count == 250)
        },
    ]
}
