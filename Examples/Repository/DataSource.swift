import Persist

/// A complete CRUD interface over entities, whatever keeps them.
protocol DataSource {
    associatedtype Entity: DataStoreEntity

    /// A name for messages, such as "memory" or "disk".
    var name: String { get }
    func getAll() throws -> [Entity]
    func getById(_ id: Entity.ID) throws -> Entity?
    func insert(_ entity: Entity) throws
    func update(_ entity: Entity) throws
    func deleteById(_ id: Entity.ID) throws
    func clean() throws
    /// Makes the source hold exactly `entities`.
    func replaceAll(with entities: [Entity]) throws
}

/// A data source on any `DataStore`: the in-memory store, an SQLite file, a GDBM file.
struct StoreDataSource<Entity: DataStoreEntity>: DataSource {
    let name: String
    let store: any DataStore

    func getAll() throws -> [Entity] {
        try store.read { accessor in try accessor.getAll(Entity.self) }
    }

    func getById(_ id: Entity.ID) throws -> Entity? {
        try store.read { accessor in try accessor.getById(Entity.self, id: id) }
    }

    func insert(_ entity: Entity) throws {
        try store.writeSync { accessor in try accessor.insert(entity) }
    }

    func update(_ entity: Entity) throws {
        try store.writeSync { accessor in try accessor.update(entity) }
    }

    func deleteById(_ id: Entity.ID) throws {
        try store.writeSync { accessor in try accessor.deleteById(Entity.self, id: id) }
    }

    func clean() throws {
        try store.writeSync { accessor in try accessor.clean(Entity.self) }
    }

    func replaceAll(with entities: [Entity]) throws {
        try store.writeSync { accessor in try accessor.synchronize(entities) }
    }
}
