extension DataStoreReadWriteAccessor {
    /// Creates a new item whose identifier is made as `idGeneration` says, ready to be filled in.
    /// It is inserted, with the values set on it, at the next accessor call or when the block
    /// commits.
    ///
    /// With ``IDGeneration/nextInteger`` the identifier is an `.int` greater than every integer
    /// identifier of the type at that moment, also in other processes writing the same file
    /// (write blocks are exclusive across processes); see <doc:GeneratedIdentifiers>.
    ///
    /// ```swift
    /// let id: ItemID = try store.writeSync { accessor in
    ///     let todo = try accessor.createItem(ofType: "Todo", idGeneration: .nextInteger)
    ///     todo["title"] = "Buy milk"
    ///     return todo.id
    /// }
    /// ```
    ///
    /// - Throws: ``DataStoreError/Code/invalidArgument`` for an invalid type name;
    ///   ``DataStoreError/Code/unsupported`` when the type's integer identifiers have reached `Int64.max`
    ///   or the largest integer its key column holds (a 32-bit `integer` key, say).
    public func createItem(ofType itemType: String, idGeneration: IDGeneration) throws -> MutableItem {
        switch idGeneration {
        case .uuid: return try createItem(ofType: itemType, id: .generate())
        case .nextInteger: return try createItem(ofType: itemType, id: .int(nextIntegerID(ofType: itemType)))
        }
    }

    /// Takes the next generated integer identifier of `itemType` for an item this block is about
    /// to insert: greater than every integer identifier of the type, and than every one this
    /// store (or a child store of it) handed out before.
    ///
    /// ```swift
    /// try store.writeSync { accessor in
    ///     let id = try accessor.nextIntegerID(ofType: "Todo")
    ///     try accessor.insert(Item(itemType: "Todo", id: .int(id), attributes: ["title": "Buy milk"]))
    /// }
    /// ```
    ///
    /// - Throws: ``DataStoreError/Code/invalidArgument`` for an invalid type name;
    ///   ``DataStoreError/Code/unsupported`` when the type's integer identifiers have reached `Int64.max`
    ///   or the largest integer its key column holds (a 32-bit `integer` key, say).
    public func nextIntegerID(ofType itemType: String) throws -> Int64 {
        try checkActiveAndFlushPendingChanges()
        try context.locating { try NameRules.validateItemType(itemType) }
        let candidate: Int64
        // The names match as Swift strings; a store that keeps two spellings of one name apart
        // is asked again for the other spelling, whose items the known value does not cover.
        // A key numbered by a sequence that legacy inserts share is asked every time (see
        // `StoreWriter.takesEachIntegerIDFromSequence(ofType:)`).
        if let known = nextIntegerIDs.index(forKey: itemType), nextIntegerIDs[known].key.utf8.elementsEqual(itemType.utf8),
           !writer.takesEachIntegerIDFromSequence(ofType: itemType) {
            candidate = nextIntegerIDs[known].value
        } else {
            candidate = try context.locating { try writer.nextIntegerID(ofType: itemType) }
        }
        let chosen = try context.locating {
            let chosen = try context.reservations.take(atLeast: candidate, ofType: itemType)
            try writer.checkGeneratedIntegerID(chosen, ofType: itemType)
            return chosen
        }
        // Kept under this spelling, so that the next request of it uses what is known.
        nextIntegerIDs.removeValue(forKey: itemType)
        nextIntegerIDs[itemType] = chosen
        noteWritten(.int(chosen), ofType: itemType)
        return chosen
    }

    /// Raises the next generated identifier of the type above an integer identifier the block wrote.
    func noteWritten(_ id: ItemID, ofType itemType: String) {
        guard case .int(let value) = id, let next = nextIntegerIDs[itemType], value >= next else { return }
        // At Int64.max nothing is left; the next request asks the engine, which says so.
        nextIntegerIDs[itemType] = value < .max ? value + 1 : nil
    }
}

extension DataStoreReadWriteAccessor {
    /// Stores a new entity under a generated identifier, and returns it as stored (with that
    /// identifier). The entity's own `id` is ignored.
    ///
    /// ```swift
    /// let todo = try store.writeSync { accessor in
    ///     try accessor.insert(Todo(id: 0, title: "Buy milk"), idGeneration: .nextInteger)
    /// }
    /// print(todo.id)   // 1 in an empty store
    /// ```
    ///
    /// - Throws: ``DataStoreError/Code/typeMismatch`` when the entity's identifier cannot hold the
    ///   generated one (a `String` id with ``IDGeneration/nextInteger``).
    @discardableResult
    public func insert<E: DataStoreEntity>(_ entity: E, idGeneration: IDGeneration) throws -> E {
        let item = try entity.makeItem()
        let id: ItemID
        switch idGeneration {
        case .uuid: id = .generate()
        case .nextInteger: id = .int(try nextIntegerID(ofType: item.itemType))
        }
        let stored = Item(itemType: item.itemType, id: id, attributes: item.attributes)
        let decoded = try E(item: stored)
        try insert(stored)
        return decoded
    }
}
