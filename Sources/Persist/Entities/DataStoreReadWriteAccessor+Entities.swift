extension DataStoreReadWriteAccessor {
    /// Stores a new entity.
    ///
    /// ```swift
    /// try store.writeSync { accessor in try accessor.insert(Restaurant(id: "r1", name: "Pizza Place", rating: 4)) }
    /// ```
    ///
    /// - Throws: ``DataStoreError/Code/alreadyExists`` when an entity with the same id is stored.
    public func insert<E: DataStoreEntity>(_ entity: E) throws {
        try checkActiveAndFlushPendingChanges()
        guard let (row, sink) = try encodedRow(entity) else { return try insert(context.locating(entity.makeItem)) }
        try context.locating { try sink.insert(row) }
        noteWritten(row)
    }

    /// Replaces a stored entity.
    ///
    /// - Throws: ``DataStoreError/Code/notFound`` when no entity with this id is stored.
    public func update<E: DataStoreEntity>(_ entity: E) throws {
        try checkActiveAndFlushPendingChanges()
        guard let (row, sink) = try encodedRow(entity) else {
            let item = try context.locating(entity.makeItem)
            guard try self.item(ofType: item.itemType, id: item.id) != nil else { throw notStored(item.reference) }
            return try save(item)
        }
        let reference = row.reference
        guard try context.locating({ try sink.update(row) }) else { throw notStored(reference) }
        noteWritten(row)
    }

    private func notStored(_ reference: ItemReference) -> DataStoreError {
        DataStoreError(.notFound, "cannot update \(reference): it is not stored", items: [reference])
            .located(at: context.location)
    }

    /// Stores an entity, replacing any stored entity with the same id.
    public func save<E: DataStoreEntity>(_ entity: E) throws {
        try checkActiveAndFlushPendingChanges()
        guard let (row, sink) = try encodedRow(entity) else { return try save(context.locating(entity.makeItem)) }
        try context.locating { try sink.save(row) }
        noteWritten(row)
    }

    /// The entity's row through its type's plan and the engine's sink for it; `nil` when the
    /// general path must write it: an entity the plan cannot express, mutable items to keep up to
    /// date, unique indexes the accessor checks for the engine, or relations it checks the
    /// entity's references against. The row is valid until the
    /// next entity of the type is encoded.
    private func encodedRow<E: DataStoreEntity>(_ entity: E) throws -> (EntityRow, any EntityRowSink)? {
        guard !hasMutableItems else { return nil }
        let state = entityWrites.state(for: E.self, writer: writer)
        guard state.encoder.plan.hasValidItemType else { return nil }
        if !writer.enforcesUniqueIndexes, try !context.locating({ try uniqueIndexes(ofType: E.itemType) }).isEmpty {
            return nil
        }
        if try referrerType(E.itemType) { return nil }
        guard let row = state.row(of: entity) else { return nil }
        return (row, state.sink)
    }

    /// Notes the identifier of a row written, for identifiers generated later in the block.
    private func noteWritten(_ row: EntityRow) {
        if !nextIntegerIDs.isEmpty { noteWritten(row.id, ofType: row.plan.itemType) }
    }

    /// Deletes the entity with identifier `id`; `true` if it was stored.
    @discardableResult
    public func deleteById<E: DataStoreEntity>(_ type: E.Type, id: E.ID) throws -> Bool {
        try deleteItem(ofType: E.itemType, id: context.locating { try E.itemID(for: id) })
    }

    /// Deletes every entity of a type; returns how many there were.
    @discardableResult
    public func clean<E: DataStoreEntity>(_ type: E.Type) throws -> Int {
        try deleteAllItems(ofType: E.itemType)
    }

    /// Makes the store hold exactly `entities` of their type: adds the missing ones, updates those
    /// that differ, deletes stored ones not in the collection (including items that no longer
    /// decode as `E`), and reports what it did.
    ///
    /// ```swift
    /// let result = try store.writeSync { accessor in
    ///     try accessor.synchronize([Restaurant(id: "r1", name: "Pizza Place", rating: 5)])
    /// }
    /// ```
    ///
    /// - Throws: ``DataStoreError/Code/invalidArgument`` when two entities share an id.
    @discardableResult
    public func synchronize<E: DataStoreEntity, S: Sequence<E>>(_ entities: S) throws -> SynchronizeResult<E> {
        try checkActiveAndFlushPendingChanges()
        var wanted: [ItemID: Int] = [:]
        var pending: [EntitySynchronization<E>] = []
        for entity in entities {
            let encoded: EntitySynchronization<E>
            if let (row, _) = try encodedRow(entity) {
                encoded = EntitySynchronization(entity: entity, id: row.id, form: .row(row.plan, Array(row.values)))
            } else {
                let item = try context.locating(entity.makeItem)
                encoded = EntitySynchronization(entity: entity, id: item.id, form: .item(item))
            }
            if wanted.updateValue(pending.count, forKey: encoded.id) != nil {
                let reference = ItemReference(itemType: E.itemType, id: encoded.id)
                throw DataStoreError(.invalidArgument, "the collection holds \(reference) more than once", items: [reference])
                    .located(at: context.location)
            }
            pending.append(encoded)
        }
        var stored: [Bool] = Array(repeating: false, count: pending.count)
        var changed: [Bool] = Array(repeating: false, count: pending.count)
        var removed: [ItemID] = []
        let request = DataStoreRequest(itemType: E.itemType)
        try context.locating { try request.validate() }
        let comparison = EntityRowComparison()
        try entityRows.forEachEntityRow(matching: request) { source in
            let id = try source.identifier()
            if let index = wanted[id] {
                stored[index] = true
                changed[index] = try !comparison.matches(pending[index].form, source)
            } else {
                removed.append(id)
            }
            return true
        }
        var result = SynchronizeResult<E>(added: [], updated: [], removed: removed, unchanged: 0)
        for id in removed {
            try deleteItem(ofType: E.itemType, id: id)
        }
        for (index, entry) in pending.enumerated() {
            if !stored[index] {
                try write(entry, inserting: true)
                result.added.append(entry.entity)
            } else if changed[index] {
                try write(entry, inserting: false)
                result.updated.append(entry.entity)
            } else {
                result.unchanged += 1
            }
        }
        return result
    }

    /// Inserts or saves one entity of a synchronization, as a row when it was encoded as one.
    private func write<E: DataStoreEntity>(_ entry: EntitySynchronization<E>, inserting: Bool) throws {
        guard case .row(let plan, let values) = entry.form, !hasMutableItems, try !referrerType(E.itemType) else {
            let item = try entry.item()
            return try inserting ? insert(item) : save(item)
        }
        try checkActiveAndFlushPendingChanges()
        let sink = entityWrites.state(for: E.self, writer: writer).sink
        try values.withUnsafeBufferPointer { buffer in
            let row = EntityRow(plan: plan, id: entry.id, values: buffer)
            try context.locating { try inserting ? sink.insert(row) : sink.save(row) }
            noteWritten(row)
        }
    }
}
