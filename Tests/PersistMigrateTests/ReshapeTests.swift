import Foundation
import Persist
import PersistTestSupport
import Testing

/// `--rename-type`, `--rename-attribute`, `--drop-attribute` and `--raw-value`, end to end through
/// the built tool. The bad-input cases are rows of the exit matrix (ReshapeExitCases).
@Suite("persist-migrate reshapes items on the way", .serialized)
struct ReshapeTests {
    static func run(_ arguments: [String], in directory: TemporaryDirectory) throws -> ProductRunner.Output {
        let output = try Tool.run(arguments + ["--progress", "never"], in: directory.url)
        #expect(output.status == 0, "\(arguments): \(output.stderr)")
        return output
    }

    @Test("renames and drops reach the target, ids keep their kind, and --json counts each rule")
    func renamesAndDrops() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let items = StoreFiles.items(count: 12)
        try StoreFiles.gdbm(directory.path("old.db"), holding: items)
        let output = try Self.run(["old.db", "new.sqlite", "--rename-type", "Restaurant=Place",
                                   "--rename-attribute", "Restaurant.name=title", "--drop-attribute", "Restaurant.logo",
                                   "--rename-attribute", "Review.stars=rating", "--rename-attribute", "Review.none=x",
                                   "--json"], in: directory)
        var expected: Set<Item> = []
        for item in items {
            var attributes = item.attributes
            if item.itemType == "Restaurant" {
                attributes["title"] = attributes.removeValue(forKey: "name")
                attributes["logo"] = nil
                expected.insert(Item(itemType: "Place", id: item.id, attributes: attributes))
            } else {
                attributes["rating"] = attributes.removeValue(forKey: "stars")
                expected.insert(Item(itemType: "Review", id: item.id, attributes: attributes))
            }
        }
        #expect(try StoreFiles.contents(.sqlite, directory.path("new.sqlite")) == expected)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let rules = (summary["reshape"] as? [[String: Any]] ?? []).map { "\($0["rule"] ?? "")=\($0["items"] ?? "")" }
        #expect(rules == ["--rename-type Restaurant=Place=12", "--rename-attribute Restaurant.name=title=12",
                          "--rename-attribute Review.stars=rating=3", "--rename-attribute Review.none=x=0",
                          "--drop-attribute Restaurant.logo=12"])
        #expect((summary["types"] as? [[String: Any]])?.compactMap { $0["item_type"] as? String } == ["Place", "Review"])
        #expect((summary["totals"] as? [String: Any])?["omitted"] as? Int == 0)
        #expect(summary["verified"] as? Bool == true)
        #expect((summary["notes"] as? [String])?.contains("--rename-attribute Review.none=x matched no item of the source")
                    == true)
    }

    /// Canonical JSON values of every kind the mapping distinguishes: integers (Int64 limits
    /// included), doubles (with a fraction, an exponent, -0.0), strings with escapes, booleans,
    /// nested arrays and objects, and values that are not objects (strings, numbers, a boolean, an
    /// array). In JSON mode attributes mix kinds from one pair to the next (`a` is an integer, then
    /// a string; `value` a string, an integer, a double, a bool and an array), which every store keeps.
    static let canonicalJSON: [String] = [
        #"{"a":1,"b":-9223372036854775808,"c":9223372036854775807}"#,
        #"{"a":"text","m":[1,"x"]}"#,
        #"{"m":{"k":2}}"#,
        #"42"#,
        #"2.5"#,
        #"true"#,
        #"[1,"a",null]"#,
        #"{"d":1.5,"e":1e+100,"f":-0.0,"g":0.1}"#,
        #"{"s":"quote \" backslash \\ newline \n tab \t nul \u0000 é ☃"}"#,
        #"{"nested":{"list":[1,2.5,"x",true,null,[],{}],"ok":false}}"#,
        #""just a string""#,
        #""another \u001f string""#,
        #"{}"#,
    ]

    static func rawPairs(_ values: [String]) -> [[UInt8]: [UInt8]] {
        var pairs: [[UInt8]: [UInt8]] = [:]
        for (index, value) in values.enumerated() { pairs[Array("key-\(index)".utf8)] = Array(value.utf8) }
        pairs[[0xFF, 0x00, 0x01]] = Array(#"{"binary":"key"}"#.utf8)
        return pairs
    }

    @Test("raw → SQLite → raw gives back every pair byte for byte, in every --raw-value mode",
          arguments: ["bytes", "utf8", "json"])
    func rawRoundTrip(_ mode: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var pairs = Self.rawPairs(Self.canonicalJSON)
        if mode == "bytes" { pairs[Array("invalid-utf8".utf8)] = [0xFF, 0xFE, 0x00] }
        if mode != "json" { pairs[Array("text".utf8)] = Array("plain text, not JSON\u{0}".utf8) }
        try ForeignFile.create(directory.path("legacy.dbm"), pairs: pairs)
        _ = try Self.run(["legacy.dbm", "mid.sqlite", "--raw-value", mode], in: directory)
        _ = try Self.run(["mid.sqlite", "back.dbm", "--to-layout", "raw", "--raw-value", mode], in: directory)
        #expect(try ForeignFile.pairs(directory.path("back.dbm")) == pairs)
    }

    static let spacedObject = #"{ "n": 7, "x": 7.0, "big": 123456789012345678901, "e": 1E2, "no": null, "#
        + #""deep": {"a": [1, {"b": "c"}]} }"#

    @Test("--raw-value json maps JSON to attributes: integers that fit stay integers, other numbers are doubles")
    func jsonMapping() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try ForeignFile.create(directory.path("legacy.dbm"), pairs: [
            Array("object".utf8): Array(Self.spacedObject.utf8),
            Array("scalar".utf8): Array(" 3 ".utf8),
        ])
        _ = try Self.run(["legacy.dbm", "new.sqlite", "--raw-value", "json"], in: directory)
        let items = try StoreFiles.contents(.sqlite, directory.path("new.sqlite"))
        let object = try #require(items.first { $0.id == .bytes(Array("object".utf8)) })
        #expect(object.attributes == [
            "n": .int(7), "x": .double(7), "big": .double(1.2345678901234568e20), "e": .double(100),
            "deep": .object(["a": .array([.int(1), .object(["b": .string("c")])])]),
        ])
        #expect(items.first { $0.id == .bytes(Array("scalar".utf8)) }?.attributes == ["value": .int(3)])
        // Written back canonically: sorted keys, no spaces, shortest numbers, null members gone.
        _ = try Self.run(["new.sqlite", "back.dbm", "--to-layout", "raw", "--raw-value", "json"], in: directory)
        let back = try ForeignFile.pairs(directory.path("back.dbm"))
        #expect(back[Array("object".utf8)].map { String(decoding: $0, as: UTF8.self) }
                    == #"{"big":1.2345678901234568e+20,"deep":{"a":[1,{"b":"c"}]},"e":100.0,"n":7,"x":7.0}"#)
        #expect(back[Array("scalar".utf8)] == Array("3".utf8))
    }

    @Test("--raw-value utf8 reads values as strings that renames then see")
    func utf8WithRename() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try ForeignFile.create(directory.path("legacy.dbm"), pairs: [Array("k".utf8): Array("héllo".utf8)])
        _ = try Self.run(["legacy.dbm", "new.sqlite", "--raw-value", "utf8", "--rename-type", "Entry=Greeting",
                          "--rename-attribute", "Entry.value=text"], in: directory)
        #expect(try StoreFiles.contents(.sqlite, directory.path("new.sqlite"))
                    == [Item(itemType: "Greeting", id: .bytes(Array("k".utf8)), attributes: ["text": "héllo"])])
    }

    @Test("--raw-value json with renames: the rules see the decoded members, and --json counts them")
    func jsonWithRules() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try ForeignFile.create(directory.path("sessions.dbm"), pairs: [
            Array("s1".utf8): Array(#"{"user":"ann","csrf":"x"}"#.utf8),
            Array("s2".utf8): Array(#"{"user":"bob"}"#.utf8),
        ])
        let output = try Self.run(["sessions.dbm", "new.sqlite", "--raw-value", "json", "--drop-attribute", "Entry.csrf",
                                   "--rename-attribute", "Entry.user=login", "--json"], in: directory)
        #expect(try StoreFiles.contents(.sqlite, directory.path("new.sqlite")) == [
            Item(itemType: "Entry", id: .bytes(Array("s1".utf8)), attributes: ["login": "ann"]),
            Item(itemType: "Entry", id: .bytes(Array("s2".utf8)), attributes: ["login": "bob"]),
        ])
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let rules = (summary["reshape"] as? [[String: Any]] ?? []).map { "\($0["rule"] ?? "")=\($0["items"] ?? "")" }
        #expect(rules == ["--rename-attribute Entry.user=login=2", "--drop-attribute Entry.csrf=1"])
        // The note on the detected raw layout says where the values went: not into "value".
        let notes = summary["notes"] as? [String] ?? []
        #expect(notes.contains { $0.contains("read as JSON (--raw-value json): an object's members as attributes") },
                "notes: \(notes)")
    }

    @Test("--help lists the reshape options together")
    func help() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let output = try Tool.run(["--help"], in: directory.url)
        let lines = output.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let group = lines.drop { $0 != "RESHAPING:" }.dropFirst().prefix { !$0.isEmpty }.joined(separator: "\n")
        for option in ["--rename-type", "--rename-attribute", "--drop-attribute", "--raw-value"] {
            #expect(group.contains(option), "the reshaping options do not list \(option): \(output.stdout)")
        }
    }
}
