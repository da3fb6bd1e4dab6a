import Foundation
import Persist
import PersistTestSupport
import Testing

/// Reshape rules over `--raw-value` decoding, in runs that read the source more than once (a check
/// or verification of an existing target) or that recover the source first.
@Suite("persist-migrate reshapes decoded raw values", .serialized)
struct RawValueReshapeTests {
    static let sessions: [[UInt8]: [UInt8]] = [
        Array("s1".utf8): Array(#"{"user":"ann","csrf":"x"}"#.utf8),
        Array("s2".utf8): Array(#"{"user":"bob"}"#.utf8),
    ]

    static let reshaped: Set<Item> = [
        Item(itemType: "Entry", id: .bytes(Array("s1".utf8)), attributes: ["login": "ann"]),
        Item(itemType: "Entry", id: .bytes(Array("s2".utf8)), attributes: ["login": "bob"]),
    ]

    static let rules = ["--raw-value", "json", "--rename-attribute", "Entry.user=login", "--drop-attribute", "Entry.csrf"]

    static func ruleCounts(_ output: ProductRunner.Output) throws -> [String] {
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        return (summary["reshape"] as? [[String: Any]] ?? []).map { "\($0["rule"] ?? "")=\($0["items"] ?? "")" }
    }

    @Test("into an existing target, whose check and verification read the source again, each rule counts each item once",
          arguments: [["--if-exists", "replace"], ["--if-exists", "skip"], ["--if-exists", "fail"]])
    func countsOnceWithExistingTarget(_ ifExists: [String]) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try ForeignFile.create(directory.path("sessions.dbm"), pairs: Self.sessions)
        let other = Item(itemType: "Other", id: 1, attributes: ["a": 1])
        let present = Item(itemType: "Entry", id: .bytes(Array("s2".utf8)), attributes: ["login": "bob"])
        try StoreFiles.sqlite(directory.path("existing.sqlite"),
                              holding: ifExists.last == "fail" ? [other] : [other, present])
        let output = try Tool.run(["sessions.dbm", "existing.sqlite", "--json", "--progress", "never"] + Self.rules + ifExists,
                                  in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try StoreFiles.contents(.sqlite, directory.path("existing.sqlite")) == Self.reshaped.union([other]))
        #expect(try Self.ruleCounts(output) == ["--rename-attribute Entry.user=login=2", "--drop-attribute Entry.csrf=1"])
    }

    @Test("--recover on a raw GDBM file decodes its values as --raw-value says, and the rules see the decoded members")
    func recoveredRawSource() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try ForeignFile.create(directory.path("crashed.dbm"), pairs: Self.sessions)
        try MigrateFixtures.breakCleanClose(directory.path("crashed.dbm"))
        let output = try Tool.run(["crashed.dbm", "new.sqlite", "--recover", "--json", "--progress", "never"] + Self.rules,
                                  in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try StoreFiles.contents(.sqlite, directory.path("new.sqlite")) == Self.reshaped)
        #expect(try Self.ruleCounts(output) == ["--rename-attribute Entry.user=login=2", "--drop-attribute Entry.csrf=1"])
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let notes = summary["notes"] as? [String] ?? []
        #expect(!notes.contains { $0.contains("has no effect") || $0.contains("matched no item") }, "notes: \(notes)")
    }
}
