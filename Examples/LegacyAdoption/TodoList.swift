import Foundation
import Persist

/// A to-do as the app sees it: a plain value. The legacy table's columns become its properties.
struct Todo: DataStoreEntity, Equatable {
    static let itemType = "todo"
    var id: Int
    var title: String
    var done: Int
    var due: String?
}

/// The "after": every call site on the `DataStore` API with typed entities, and no SQL left. The
/// store is injected, so the app (and its tests) can run on any store.
struct TodoList {
    let store: any DataStore

    func add(_ title: String, due: String?) throws {
        try store.writeSync { accessor in
            // The store generates the identifier (the model's 0 is a placeholder), as SQLite would.
            try accessor.insert(Todo(id: 0, title: title, done: 0, due: due), idGeneration: .nextInteger)
        }
    }

    func markDone(_ id: Int) throws {
        try store.writeSync { accessor in
            guard var todo = try accessor.getById(Todo.self, id: id) else { return }
            todo.done = 1
            try accessor.update(todo)
        }
    }

    func openTitles() throws -> [String] {
        var request = DataStoreRequest(itemType: Todo.self)
        request.filter = .attribute("done") == 0
        return try store.read { accessor in try accessor.getAll(Todo.self, forRequest: request).map(\.title) }
    }
}
