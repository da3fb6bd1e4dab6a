import Persist
import PersistSQL
import Testing

/// A table description carries the PostgreSQL enum types its columns name through its Value form.
@Suite("Table descriptions carry enum types")
struct TableDescriptionEnumTests {
    @Test("enum types survive the Value form; absent when there are none; a malformed one is refused")
    func enumTypes() {
        var description = TableDescription(
            itemType: "everyday", key: .init(name: "id", declaredType: "integer", notNull: true),
            columns: [.init(name: "feeling", declaredType: "mood"), .init(name: "feelings", declaredType: "mood[]")],
            dialect: .postgresql)
        guard case .object(let plain) = description.value else { Issue.record("not an object"); return }
        #expect(plain["enumTypes"] == nil)
        description.enumTypes = ["mood": ["sad", "ok", "happy"]]
        #expect(TableDescription(value: description.value) == description)
        guard case .object(var object) = description.value else { Issue.record("not an object"); return }
        object["enumTypes"] = ["mood": ["sad", 5]]
        #expect(TableDescription(value: .object(object)) == nil)
    }
}
