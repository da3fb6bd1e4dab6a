import Foundation
import Persist
import PersistTestSupport
import Testing

/// A target whose name is long but legal (up to 255 bytes) is built beside itself under a name
/// that still fits: the staging name repeats at most the first 150 bytes of it.
@Suite("persist-migrate copies into targets with long names")
struct LongNameTests {
    /// 227 bytes: 110 two-byte characters, then the extension.
    static func longName(_ extension: String) -> String {
        String(repeating: "é", count: 110) + "." + `extension`
    }

    @Test("a new SQLite or GDBM target, and an existing GDBM target, whose name has over 200 bytes",
          arguments: [("sqlite", false), ("gdbm", false), ("gdbm", true)])
    func longTargetName(kind: String, existing: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let items = StoreFiles.items(count: 20)
        try StoreFiles.gdbm(directory.path("old.db"), holding: items)
        let target = Self.longName(kind)
        if existing { try StoreFiles.gdbm(directory.path(target), holding: []) }
        let output = try Tool.run(["old.db", target, "--progress", "never"], in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        let listing = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
        #expect(listing == ["old.db", target].sorted())
        #expect(try StoreFiles.contents(kind == "sqlite" ? .sqlite : .gdbm, directory.path(target)) == Set(items))
    }
}
