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
    try expectUpdateOfSecondRefused(store, .invalidArgument)
}

/// Checks that `updateItems` on the table `t` of `store`, whose trigger turns the `w` it is given
/// into upper case for the row with identifier 2 only, is refused with `typeMismatch` naming
/// `t/2`, saying a trigger changed it, and changes nothing, and that the block goes on to an
/// update that leaves that row out.
///
/// ```swift
/// try expectAlteredUpdateRefused(store)   // t holds 1, 2, 3 with attributes v and w
/// ```
public func expectAlteredUpdateRefused(_ store: any DataStore) throws {
    try expectUpdateOfSecondRefused(store, .typeMismatch, mentioning: "trigger")
}

/// Setting `w` on every item of `t` is refused with `code` naming `t/2`, whose `v` is `"b"`.
private func expectUpdateOfSecondRefused(_ store: any DataStore, _ code: DataStoreError.Code,
                                         mentioning fragment: String? = nil) throws {
    let every = DataStoreRequest(itemType: "t")
    let before = try allItems(store, "t")
    try store.writeSync { accessor throws in
        let refused = expectError(code) { try accessor.updateItems(forRequest: every, setting: ["w": "y"]) }
        #expect(refused?.items == [ItemReference(itemType: "t", id: 2)])
        if let fragment { #expect(refused?.message.contains(fragment) == true, "\(refused?.message ?? "")") }
        #expect(try accessor.items(forRequest: every) == before)
        var others = every
        others.filter = .attribute("v") != "b"
        #expect(try accessor.updateItems(forRequest: others, setting: ["w": "z"]) == 2)
    }
    #expect(try allItems(store, "t") == before.map { $0.id == 2 ? $0 : $0.setting(["w": "z"]) })
}
