import Foundation
import Testing

@testable import Persist

@Suite("Migration reshape and transform")
struct MigrationTransformTests {
    static func notes() -> [Item] {
        (0..<120).map {
            Item(itemType: "Note", id: .int(Int64($0)),
                 attributes: ["titel": .string("N\($0)"), "flags": .int(Int64($0 % 3)), "draft": .bool($0 % 10 == 0)])
        } + (0..<30).map { Item(itemType: "Tag", id: .string("t\($0)"), attributes: ["label": .string("L\($0)")]) }
    }

    static func open(holding items: [Item] = []) throws -> any DataStore {
        try MigrationTests.open(InMemoryDataStore(), holding: items)
    }

    static func items(_ store: any DataStore, ofType itemType: String) throws -> [Item] {
        try store.read { try $0.items(forRequest: DataStoreRequest(itemType: itemType)) }
    }

    @Test("a reshape renames types and attributes and drops attributes; ids keep their kind; verified")
    func reshapes() throws {
        let source = try Self.open(holding: Self.notes())
        let target = try Self.open()
        var options = MigrationOptions(batchSize: 50)
        options.reshape = MigrationReshape([
            .renameType("Note", to: "Memo"), .renameAttribute("titel", ofType: "Note", to: "title"),
            .dropAttribute("flags", ofType: "Note"),
        ])
        let report = try Migration(source: source, target: target, options: options).run()
        #expect(try target.read { try $0.itemTypes() } == ["Memo", "Tag"])
        let memo = try target.read { try $0.item(ofType: "Memo", id: .int(7)) }
        #expect(memo == Item(itemType: "Memo", id: .int(7), attributes: ["title": "N7", "draft": false]))
        #expect(try Self.items(target, ofType: "Tag").count == 30)
        #expect(report.verified && report.written == 150 && report.omitted == 0)
        #expect(report.types.map(\.itemType) == ["Memo", "Tag"])
        #expect(report.unusedRules.isEmpty)
        #expect(report.reshape.map(\.items) == [120, 120, 120])
    }

    @Test("rules that match no item are reported, not refused")
    func unusedRules() throws {
        let source = try Self.open(holding: Self.notes())
        let target = try Self.open()
        let unused: [MigrationReshape.Rule] = [.renameType("Ghost", to: "Spirit"),
                                                .renameAttribute("missing", ofType: "Tag", to: "present")]
        var options = MigrationOptions()
        options.reshape = MigrationReshape([.renameAttribute("label", ofType: "Tag", to: "name")] + unused)
        let report = try Migration(source: source, target: target, options: options).run()
        #expect(report.unusedRules == unused)
        #expect(try target.read { try $0.item(ofType: "Tag", id: "t1") }?["name"] == "L1")
    }

    @Test("a transform returning nil leaves the item out and the report counts it under its source type")
    func skips() throws {
        let source = try Self.open(holding: Self.notes())
        let target = try Self.open()
        var options = MigrationOptions()
        options.transform = { item in item["draft"] == .bool(true) ? nil : item }
        let report = try Migration(source: source, target: target, options: options).run()
        #expect(try Self.items(target, ofType: "Note").count == 108)
        let note = try #require(report.types.first { $0.itemType == "Note" })
        #expect(note.read == 120 && note.written == 108 && note.omitted == 12)
        #expect(report.omitted == 12 && report.verified)
    }

    @Test("decode runs before the reshape: the rules name, check and count the decoded attributes")
    func decodesBeforeReshape() throws {
        let people = (0..<10).map { Item(itemType: "Person", id: .int(Int64($0)), attributes: ["name": .string("Ada L\($0)")]) }
        let source = try Self.open(holding: people + [Item(itemType: "Person", id: 99, attributes: ["name": "Plato"])])
        let target = try Self.open()
        var options = MigrationOptions()
        options.decode = { item in
            guard case .string(let name)? = item["name"], let space = name.firstIndex(of: " ") else { return item }
            var decoded = item
            decoded["name"] = nil
            decoded["first"] = .string(String(name[..<space]))
            decoded["last"] = .string(String(name[name.index(after: space)...]))
            return decoded
        }
        options.reshape = MigrationReshape([.renameAttribute("last", ofType: "Person", to: "surname")])
        let report = try Migration(source: source, target: target, options: options).run()
        #expect(report.verified && report.written == 11)
        #expect(report.reshape.map(\.items) == [10])
        #expect(try target.read { try $0.item(ofType: "Person", id: 3) }?.attributes == ["first": "Ada", "surname": "L3"])
        #expect(try target.read { try $0.item(ofType: "Person", id: 99) }?.attributes == ["name": "Plato"])
    }

    @Test("the transform runs after the reshape and may change values; verification compares transformed items")
    func transformsAfterReshape() throws {
        let source = try Self.open(holding: Self.notes())
        let target = try Self.open()
        var options = MigrationOptions()
        options.reshape = MigrationReshape([.renameAttribute("titel", ofType: "Note", to: "title")])
        options.transform = { item in
            guard case .string(let title)? = item["title"] else { return item }
            var copy = item
            copy["title"] = .string(title.lowercased())
            return copy
        }
        let report = try Migration(source: source, target: target, options: options).run()
        #expect(try target.read { try $0.item(ofType: "Note", id: .int(3)) }?["title"] == "n3")
        #expect(report.verified)
        var expected = ItemChecksum()
        for item in Self.notes() where item.itemType == "Note" {
            var copy = try options.reshape.apply(to: item)
            if case .string(let title)? = copy["title"] { copy["title"] = .string(title.lowercased()) }
            expected.add(copy)
        }
        #expect(report.types.first { $0.itemType == "Note" }?.sourceChecksum == expected)
    }

    @Test("a transform that throws stops the run naming the item; an atomic run writes nothing")
    func throwsNamingTheItem() throws {
        struct Refused: Error, CustomStringConvertible { var description: String { "no sevens" } }
        let source = try Self.open(holding: Self.notes())
        let target = try Self.open()
        var options = MigrationOptions(atomic: true)
        options.transform = { item in
            if item.id == .int(77) { throw Refused() }
            return item
        }
        let error = try #require(throws: DataStoreError.self) {
            try Migration(source: source, target: target, options: options).run()
        }
        #expect(error.code == .invalidArgument)
        #expect(error.items == [ItemReference(itemType: "Note", id: .int(77))])
        #expect(error.message.contains("no sevens") && error.message.contains("Note"))
        #expect(try target.read { try $0.itemTypes() }.isEmpty)
    }

    @Test("verification of transformed items sees a target that differs from them")
    func verificationSeesDifferences() throws {
        let source = try Self.open(holding: Self.notes())
        let target = FaultyStore(.dropAttribute("title"))
        try target.setup()
        var options = MigrationOptions()
        options.reshape = MigrationReshape([.renameAttribute("titel", ofType: "Note", to: "title")])
        let error = try #require(throws: DataStoreError.self) {
            try Migration(source: source, target: target, options: options).run()
        }
        #expect(error.code == .corrupt)
        #expect(error.message.contains("verification failed for Note"))
    }

    @Test("into a target that holds the type: existing items are found and each item is verified after the transform")
    func existingTarget() throws {
        let source = try Self.open(holding: Self.notes())
        let present = Item(itemType: "Memo", id: .int(5), attributes: ["title": "old"])
        let target = try Self.open(holding: [present])
        var options = MigrationOptions(itemTypes: ["Note"])
        options.reshape = MigrationReshape([.renameType("Note", to: "Memo")])
        let error = try #require(throws: DataStoreError.self) {
            try Migration(source: source, target: target, options: options).run()
        }
        #expect(error.code == .alreadyExists && error.items == [present.reference])
        options.ifExists = .skip
        let report = try Migration(source: source, target: target, options: options).run()
        #expect(report.verified && report.skipped == 1 && report.written == 119)
        #expect(try target.read { try $0.item(ofType: "Memo", id: .int(5)) } == present)
        #expect(report.types.map(\.itemType) == ["Memo"])
    }

    @Test("renaming an attribute to one the item already has stops the run naming the item")
    func collision() throws {
        let item = Item(itemType: "Note", id: .int(1), attributes: ["titel": "a", "title": "b"])
        let source = try Self.open(holding: [item])
        let target = try Self.open()
        var options = MigrationOptions()
        options.reshape = MigrationReshape([.renameAttribute("titel", ofType: "Note", to: "title")])
        let error = try #require(throws: DataStoreError.self) {
            try Migration(source: source, target: target, options: options).run()
        }
        #expect(error.code == .invalidArgument && error.items == [item.reference])
        #expect(throws: DataStoreError.self) { try options.reshape.apply(to: item) }
        #expect(try target.read { try $0.itemTypes() }.isEmpty)
    }

    @Test("renames apply together: two attributes can swap names, and a rename may replace a dropped one")
    func simultaneous() throws {
        let item = Item(itemType: "P", id: "p", attributes: ["a": 1, "b": 2, "c": 3])
        let swap = MigrationReshape([.renameAttribute("a", ofType: "P", to: "b"), .renameAttribute("b", ofType: "P", to: "a")])
        #expect(try swap.apply(to: item).attributes == ["a": 2, "b": 1, "c": 3])
        let replace = MigrationReshape([.dropAttribute("b", ofType: "P"), .renameAttribute("a", ofType: "P", to: "b")])
        #expect(try replace.apply(to: item).attributes == ["b": 1, "c": 3])
    }

    @Test("a migration swaps two attributes' values too: the same names, each value in the other's place")
    func swapInMigration() throws {
        let source = try Self.open(holding: [Item(itemType: "P", id: "p", attributes: ["a": 1, "b": 2, "c": 3]),
                                             Item(itemType: "P", id: "q", attributes: ["a": 4, "c": 6])])
        let target = try Self.open()
        var options = MigrationOptions()
        options.reshape = MigrationReshape([.renameAttribute("a", ofType: "P", to: "b"),
                                            .renameAttribute("b", ofType: "P", to: "a")])
        let report = try Migration(source: source, target: target, options: options).run()
        #expect(report.verified && report.written == 2)
        #expect(try Self.items(target, ofType: "P").map(\.attributes) == [["a": 2, "b": 1, "c": 3], ["b": 4, "c": 6]])
    }

    @Test("bad rules are refused before anything is read", arguments: [
        [MigrationReshape.Rule.renameType("", to: "B")],
        [.renameType("A", to: "")],
        [.renameType("A", to: "A")],
        [.renameType("A", to: "B"), .renameType("A", to: "C")],
        [.renameType("A", to: "C"), .renameType("B", to: "C")],
        [.renameAttribute("x", ofType: "A", to: "y"), .renameAttribute("z", ofType: "A", to: "y")],
        [.renameAttribute("x", ofType: "A", to: "y"), .dropAttribute("x", ofType: "A")],
        [.renameAttribute("x", ofType: "A", to: "bad\u{0}name")],
        [.dropAttribute("", ofType: "A")],
    ])
    func badRules(_ rules: [MigrationReshape.Rule]) throws {
        let source = try Self.open(holding: Self.notes())
        let target = try Self.open()
        var options = MigrationOptions()
        options.reshape = MigrationReshape(rules)
        let error = try #require(throws: DataStoreError.self) {
            try Migration(source: source, target: target, options: options).run()
        }
        #expect(error.code == .invalidArgument)
        #expect(error.message.contains("--"))
        #expect(try target.read { try $0.itemTypes() }.isEmpty)
    }

    @Test("renaming a type to another type of the source is refused")
    func mergeRefused() throws {
        let source = try Self.open(holding: Self.notes())
        let target = try Self.open()
        var options = MigrationOptions()
        options.reshape = MigrationReshape([.renameType("Note", to: "Tag")])
        let error = try #require(throws: DataStoreError.self) {
            try Migration(source: source, target: target, options: options).run()
        }
        #expect(error.code == .invalidArgument && error.message.contains("already has items of type Tag"))
        // Renaming both away is fine.
        options.reshape.rules.append(.renameType("Tag", to: "Label"))
        let report = try Migration(source: source, target: target, options: options).run()
        #expect(report.types.map(\.itemType) == ["Label", "Tag"])
    }

    @Test("renaming a type to another type of the source is fine when the copy leaves that type out")
    func mergeWithTypeLeftOut() throws {
        let source = try Self.open(holding: Self.notes())
        let target = try Self.open()
        var options = MigrationOptions()
        options.itemTypes = ["Note"]
        options.reshape = MigrationReshape([.renameType("Note", to: "Tag")])
        let report = try Migration(source: source, target: target, options: options).run()
        #expect(report.verified && report.written == 120)
        #expect(try target.read { try $0.itemTypes() } == ["Tag"])
        #expect(try Self.items(target, ofType: "Tag").count == 120)
    }

    @Test("a dry run with a transform reports what it would write and keeps nothing")
    func dryRun() throws {
        let source = try Self.open(holding: Self.notes())
        let target = try Self.open()
        var options = MigrationOptions(dryRun: true)
        options.transform = { $0.itemType == "Tag" ? nil : $0 }
        let report = try Migration(source: source, target: target, options: options).run()
        #expect(report.written == 120 && report.omitted == 30 && report.dryRun)
        #expect(try target.read { try $0.itemTypes() }.isEmpty)
    }
}
