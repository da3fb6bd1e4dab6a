import Foundation
import Persist
import Testing

/// Removes (`how` is "removed") or replaces with another file (`how` is "replaced") the file at
/// `path` of `store`, which is set up, and checks that its next write block fails with
/// `notFound`, saying which, and leaves a replacing file as it is.
public func expectWriteFailsAfterFile(_ how: String, of store: any DataStore, at path: String) throws {
    try store.writeSync { try $0.insert(Item(itemType: "Note", id: "a", attributes: ["v": 1])) }
    try FileManager.default.removeItem(atPath: path)
    if how == "replaced" { try Data("another file".utf8).write(to: URL(fileURLWithPath: path)) }
    let error = try #require(throws: DataStoreError.self) {
        try store.writeSync { try $0.insert(Item(itemType: "Note", id: "b", attributes: ["v": 2])) }
    }
    #expect(error.code == .notFound && error.path == path, "\(error)")
    #expect(error.message.contains(how == "removed" ? "was removed" : "was replaced by another file"), "\(error)")
    if how == "replaced" { #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("another file".utf8)) }
}
