import Foundation
import Persist
import PersistConformance
import Testing

/// An atomic migration's callbacks run while the target's write block is open: merging a child of
/// the target from there is the same misuse as merging it inside any other write block of the
/// parent (the transform runs on the reading thread, which would otherwise wait for the block
/// while the block waits for it).
@Suite("Migration reentrancy")
struct MigrationReentrancyTests {
    /// A source of three notes, a target, and a child of the target holding one note of its own.
    private static func stores() throws -> (source: any DataStore, target: any DataStore, child: any DataStore) {
        let notes = (0..<3).map { Item(itemType: "Note", id: .int(Int64($0)), attributes: ["text": .string("n\($0)")]) }
        let source = try MigrationTests.open(InMemoryDataStore(), holding: notes)
        let target = try MigrationTests.open(InMemoryDataStore())
        let child = try target.makeChildDataStore()
        try child.setup()
        try child.writeSync { accessor in
            try accessor.insert(Item(itemType: "Draft", id: "d", attributes: ["text": "draft"]))
        }
        return (source, target, child)
    }

    @Test("merging a child of the target from an atomic migration's beforeCommit is misuse, and the migration writes nothing")
    func mergeFromBeforeCommit() throws {
        let (source, target, child) = try Self.stores()
        var options = MigrationOptions()
        options.atomic = true
        options.beforeCommit = { try target.merge(child) }
        expectError(.misuse) { try Migration(source: source, target: target, options: options).run() }
        #expect(try MigrationTests.everything(target).isEmpty)
        // The child is untouched and still merges once the migration is over.
        try target.merge(child)
        #expect(try MigrationTests.everything(target).map(\.id) == ["d"])
    }

    @Test("merging a child of the target from an atomic migration's transform is refused, not a deadlock, and the migration writes nothing")
    func mergeFromTransform() throws {
        let (source, target, child) = try Self.stores()
        var options = MigrationOptions()
        options.atomic = true
        options.transform = { item in
            try target.merge(child)
            return item
        }
        // The transform's error stops the run as any error of the transform does, naming the misuse.
        let error = expectError(.invalidArgument) { try Migration(source: source, target: target, options: options).run() }
        // The merge waits for the child's queue, which a merge elsewhere could hold while it waits for this write.
        #expect(error?.message.contains("misuse: merge of a child store was called inside a write block (or escape hatch) of its parent") == true,
                "\(error?.message ?? "no error")")
        #expect(try MigrationTests.everything(target).isEmpty)
        try target.merge(child)
        #expect(try MigrationTests.everything(target).map(\.id) == ["d"])
    }
}
