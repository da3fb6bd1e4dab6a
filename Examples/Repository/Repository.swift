import Persist

/// Reads from several data sources with a strategy, and writes through to all of them.
struct Repository<Entity: DataStoreEntity> {
    enum Strategy {
        /// Ask the sources in order (fastest first) and take the first answer; when a slower source
        /// answers a request for everything, the faster ones are refilled with that answer.
        case firstMatch
        /// Ask only the last source, the source of truth.
        case lastSourceOnly
    }

    let sources: [StoreDataSource<Entity>]
    let strategy: Strategy

    /// Every entity, and the name of the source that answered.
    func getAll() throws -> (entities: [Entity], from: String) {
        guard let truth = sources.last else { return ([], "no source") }
        if strategy == .firstMatch {
            for (index, source) in sources.enumerated() {
                let entities = try source.getAll()
                if entities.isEmpty && index < sources.count - 1 { continue }
                for faster in sources[..<index] { try faster.replaceAll(with: entities) }
                return (entities, source.name)
            }
        }
        return (try truth.getAll(), truth.name)
    }

    /// The entity with `id`, and the name of the source that had it.
    func getById(_ id: Entity.ID) throws -> (entity: Entity?, from: String) {
        let asked = strategy == .firstMatch ? sources : Array(sources.suffix(1))
        for source in asked {
            if let entity = try source.getById(id) { return (entity, source.name) }
        }
        return (nil, "no source")
    }

    func insert(_ entity: Entity) throws {
        for source in sources { try source.insert(entity) }
    }

    func update(_ entity: Entity) throws {
        for source in sources where try source.getById(entity.id) != nil { try source.update(entity) }
    }

    func deleteById(_ id: Entity.ID) throws {
        for source in sources { try source.deleteById(id) }
    }
}
