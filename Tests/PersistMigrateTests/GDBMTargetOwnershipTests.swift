import Foundation
import Persist
import PersistTestSupport
import Testing

/// An existing GDBM target is rebuilt beside itself and renamed over the original: the file that
/// takes its place keeps its owner, group and permissions, so that a run by root over a service's
/// file leaves the service able to write it.
@Suite("persist-migrate keeps an existing GDBM target's owner, group and permissions")
struct GDBMTargetOwnershipTests {
    @Test("a run over another user's GDBM file (as root; the runner's own file otherwise) leaves it that user's, mode and all")
    func ownerKept() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try StoreFiles.gdbm(directory.path("old.db"), holding: StoreFiles.items(count: 5))
        let target = directory.path("kept.gdbm")
        try StoreFiles.gdbm(target, holding: [Item(itemType: "Other", id: 1)])
        // As root, nobody and nogroup on most systems (any ids other than root's do); only root may
        // give a file to another user, so any other runner keeps its own.
        let (owner, group) = getuid() == 0 ? (uid_t(65534), gid_t(65534)) : (getuid(), getgid())
        try #require(chown(target, owner, group) == 0 && chmod(target, 0o640) == 0, "chown, chmod: \(String(cString: strerror(errno)))")
        let before = try #require(Self.status(target))

        let output = try Tool.run(["old.db", "kept.gdbm", "--progress", "never"], in: directory.url)
        #expect(output.status == 0, "stderr: \(output.stderr)")

        let after = try #require(Self.status(target))
        #expect(after.st_ino != before.st_ino, "the target was not rebuilt beside itself")
        #expect(after.st_uid == owner && after.st_gid == group, "owner \(after.st_uid), group \(after.st_gid)")
        #expect(after.st_mode & 0o7777 == 0o640, "mode \(String(after.st_mode & 0o7777, radix: 8))")
    }

    private static func status(_ path: String) -> stat? {
        var status = stat()
        return stat(path, &status) == 0 ? status : nil
    }
}
