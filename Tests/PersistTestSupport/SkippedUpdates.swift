import Persist
import PersistConformance
import Testing

/// Checks that `updateItems` on the table `t` of `store`, whose trigger skips the update of the
/// row with identifier 2, is refused naming `t/2` and changes nothing, and that the block goes on
/// to an update that leaves that row out.
///
/// ```swift
/// try expectSkippedUpdateRefused(store)   // t holds 1, 2, 3 with attributes v and w
/// ```
public func expectSkippedUpdateRefused(_ store: any DataStore) throws {
    let every = DataStoreRequest(itemType: "t")
    let before = try allItems(store, "t")
    try store.writeSync { accessor throws in
        let refused = expectError(.invalidArgument) { try accessor.updateItems(forRequest: every, setting: ["w": "y"]) }
        #expect(refused?.items == [ItemReference(itemType: "t", id: 2)])
        #expect(try accessor.items(forRequest: every) == before)
        var others = every
        others.filter = .attribute("v") != "b"
        #expect(try accessor.updateItems(forRequest: others, setting: ["w": "z"]) == 2)
    }
    #expect(try allItems(store, "t") == before.map { $0.id == 2 ? $0 : $0.setting(["w": "z"]) })
}
