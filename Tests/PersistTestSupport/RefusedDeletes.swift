import Persist
import PersistConformance
import Testing

/// Checks that `deleteItems` of every item of the table `guarded` of `store`, whose trigger or
/// rule keeps the row with identifier 2 (`v` is `"keep"`), is refused naming `guarded/2` and
/// deletes nothing, and that the block goes on to a delete that leaves that row out.
///
/// ```swift
/// try expectSkippedSetDeleteRefused(store)   // guarded holds 1 "a", 2 "keep", 3 "c" in v
/// ```
public func expectSkippedSetDeleteRefused(_ store: any DataStore) throws {
    let every = DataStoreRequest(itemType: "guarded")
    let before = try allItems(store, "guarded")
    try store.writeSync { accessor throws in
        let refused = expectError(.invalidArgument) { try accessor.deleteItems(forRequest: every) }
        #expect(refused?.items == [ItemReference(itemType: "guarded", id: 2)])
        #expect(refused?.message.contains("skipped the row") == true, "\(refused?.message ?? "")")
        #expect(try accessor.items(forRequest: every) == before)
        var others = every
        others.filter = .attribute("v") != "keep"
        #expect(try accessor.deleteItems(forRequest: others) == 2)
    }
    #expect(try allItems(store, "guarded").map(\.id) == [2])
}

/// Checks that `deleteItem` and `deleteAllItems` on the table `guarded` of `store`, whose trigger
/// or rule keeps the row with identifier 2, are refused naming `guarded/2` rather than reported
/// as a missing item or done, and that the block goes on to delete another item.
///
/// ```swift
/// try expectSkippedDeletesRefused(store)   // guarded holds 1, 2 and 3
/// ```
public func expectSkippedDeletesRefused(_ store: any DataStore) throws {
    try store.writeSync { accessor throws in
        let single = expectError(.invalidArgument) { try accessor.deleteItem(ofType: "guarded", id: 2) }
        #expect(single?.items == [ItemReference(itemType: "guarded", id: 2)])
        #expect(try accessor.deleteItem(ofType: "guarded", id: 9) == false)
        let all = expectError(.invalidArgument) { try accessor.deleteAllItems(ofType: "guarded") }
        #expect(all?.items == [ItemReference(itemType: "guarded", id: 2)])
        #expect(try accessor.items(forRequest: DataStoreRequest(itemType: "guarded")).count == 3)
        #expect(try accessor.deleteItem(ofType: "guarded", id: 1))
    }
    #expect(try allItems(store, "guarded").map(\.id) == [2, 3])
}
