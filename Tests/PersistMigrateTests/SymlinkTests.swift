import Foundation
import Persist
import PersistTestSupport
import Testing

/// Stores reached through symbolic links: the file a link points to is what the tool replaces,
/// or leaves alone.
@Suite("persist-migrate with stores reached through symbolic links")
struct SymlinkTests {
    /// `count` restaurants; the last one also has an attribute `label`, so that renaming `name`
    /// to `label` fails on it, after the batches before it were written.
    private static func restaurants(_ count: Int) -> [Item] {
        (0..<count).map { index in
            var attributes: [String: Value] = ["name": .string("Restaurant \(index)")]
            if index == count - 1 { attributes["label"] = .string("taken") }
            return Item(itemType: "Restaurant", id: .int(Int64(1_000 + index)), attributes: attributes)
        }
    }

    /// A directory holding `real/app.gdbm` (five items) and `app.gdbm`, a link to it.
    private func linkedTarget() throws -> (TemporaryDirectory, real: String, original: Set<Item>) {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path("real"), withIntermediateDirectories: true)
        let real = directory.path("real/app.gdbm")
        try StoreFiles.gdbm(real, holding: Array(StoreFiles.items(count: 4)))
        try FileManager.default.createSymbolicLink(atPath: directory.path("app.gdbm"), withDestinationPath: real)
        return (directory, real, try StoreFiles.contents(.gdbm, real))
    }

    @Test("--if-exists replace into a linked GDBM file writes the file the link points to, and keeps the link")
    func replacesThroughLink() throws {
        let (directory, real, original) = try linkedTarget()
        defer { directory.remove() }
        let added = Self.restaurants(3).dropLast()
        try StoreFiles.sqlite(directory.path("new.sqlite"), holding: Array(added))
        let output = try Tool.run(["new.sqlite", "app.gdbm", "--if-exists", "replace", "--progress", "never"],
                                  in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: directory.path("app.gdbm"))
        #expect(link == real)
        #expect(try StoreFiles.contents(.gdbm, real) == original.union(added))
    }

    @Test("a run into a linked GDBM file that fails after writing batches leaves the file the link points to as it was")
    func failureLeavesLinkedFile() throws {
        let (directory, real, original) = try linkedTarget()
        defer { directory.remove() }
        try StoreFiles.sqlite(directory.path("new.sqlite"), holding: Self.restaurants(600))
        let before = try Data(contentsOf: URL(fileURLWithPath: real))
        let output = try Tool.run(["new.sqlite", "app.gdbm", "--if-exists", "replace", "--batch-size", "50",
                                   "--rename-attribute", "Restaurant.name=label", "--progress", "never"], in: directory.url)
        #expect(output.status == 65, "\(output.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: real)) == before)
        #expect(try StoreFiles.contents(.gdbm, real) == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("real")) == ["app.gdbm"])
    }

    @Test("--recover through a linked source recovers a copy and leaves the file the link points to as it was")
    func recoverLeavesLinkedSource() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try FileManager.default.createDirectory(atPath: directory.path("real"), withIntermediateDirectories: true)
        let real = directory.path("real/crashed.db")
        try StoreFiles.gdbm(real, holding: StoreFiles.items(count: 8))
        try MigrateFixtures.breakCleanClose(real)
        try FileManager.default.createSymbolicLink(atPath: directory.path("crashed.db"), withDestinationPath: real)
        let before = try Data(contentsOf: URL(fileURLWithPath: real))
        let output = try Tool.run(["crashed.db", "new.sqlite", "--recover", "--progress", "never"], in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: real)) == before)
        #expect(try StoreFiles.contents(.sqlite, directory.path("new.sqlite")) == Set(StoreFiles.items(count: 8)))
    }

    @Test("a new target named by a link to a file not made yet is made where the link leads, and the link stays",
          arguments: StoreKind.allCases)
    func newTargetThroughLink(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try FileManager.default.createDirectory(atPath: directory.path("real"), withIntermediateDirectories: true)
        let items = StoreFiles.items(count: 8)
        try StoreFiles.gdbm(directory.path("old.db"), holding: items)
        // A relative link to a relative link, as `ln -s` makes them.
        try FileManager.default.createSymbolicLink(atPath: directory.path("next"), withDestinationPath: "real/app.\(kind)")
        try FileManager.default.createSymbolicLink(atPath: directory.path("app.\(kind)"), withDestinationPath: "next")
        let output = try Tool.run(["old.db", "app.\(kind)", "--progress", "never"], in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory.path("app.\(kind)")) == "next")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("real")) == ["app.\(kind)"])
        #expect(try StoreFiles.contents(kind, directory.path("real/app.\(kind)")) == Set(items))

        // A link into a folder that does not exist: 73, naming that folder, and the link left.
        try FileManager.default.createSymbolicLink(atPath: directory.path("lost.\(kind)"), withDestinationPath: "gone/app.\(kind)")
        let refused = try Tool.run(["old.db", "lost.\(kind)", "--progress", "never"], in: directory.url)
        #expect(refused.status == 73, "\(refused.stderr)")
        #expect(refused.stderr.contains("the folder ./gone does not exist"), "\(refused.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory.path("lost.\(kind)")) == "gone/app.\(kind)")
    }

    /// `work/linkdir` links to `other/sub`, so `work/linkdir/../app.gdbm` is `other/app.gdbm` to the
    /// system, not `work/app.gdbm`; both exist, with different items.
    private func pathThroughLinkedFolder() throws -> (TemporaryDirectory, named: String, decoy: String) {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path("other/sub"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory.path("work"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory.path("work/linkdir"), withDestinationPath: "../other/sub")
        try StoreFiles.gdbm(directory.path("other/app.gdbm"), holding: StoreFiles.items(count: 4))
        try StoreFiles.gdbm(directory.path("work/app.gdbm"), holding: [Item(itemType: "Decoy", id: 1)])
        return (directory, directory.path("other/app.gdbm"), directory.path("work/app.gdbm"))
    }

    @Test("a target named with .. after a linked folder is the file the system finds there, not one beside the link")
    func dotDotAfterLinkedFolder() throws {
        let (directory, named, decoy) = try pathThroughLinkedFolder()
        defer { directory.remove() }
        let original = try StoreFiles.contents(.gdbm, named)
        let added = Self.restaurants(3).dropLast()
        try StoreFiles.sqlite(directory.path("work/new.sqlite"), holding: Array(added))
        let decoyBytes = try Data(contentsOf: URL(fileURLWithPath: decoy))
        let output = try Tool.run(["new.sqlite", "linkdir/../app.gdbm", "--if-exists", "replace", "--progress", "never"],
                                  in: URL(fileURLWithPath: directory.path("work")))
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try StoreFiles.contents(.gdbm, named) == original.union(added))
        #expect(try Data(contentsOf: URL(fileURLWithPath: decoy)) == decoyBytes, "the file beside the link was written")
    }

    @Test("a file beside a linked folder and one named with .. after that folder are two files, not the same one")
    func dotDotAfterLinkedFolderIsAnotherFile() throws {
        let (directory, named, _) = try pathThroughLinkedFolder()
        defer { directory.remove() }
        let original = try StoreFiles.contents(.gdbm, named)
        let output = try Tool.run(["app.gdbm", "linkdir/../app.gdbm", "--if-exists", "replace", "--progress", "never"],
                                  in: URL(fileURLWithPath: directory.path("work")))
        #expect(output.status == 0, "\(output.stderr)")
        #expect(!output.stderr.contains("same file"), "\(output.stderr)")
        #expect(try StoreFiles.contents(.gdbm, named) == original.union([Item(itemType: "Decoy", id: 1)]))
    }
}
