extension DataStoreReadAccessor {
    /// The indexes of `itemType`: those declared with
    /// ``DataStoreReadWriteAccessor/ensureIndex(ofType:on:unique:)`` and, in an adopted SQL
    /// table, the indexes and UNIQUE constraints it already had. The
    /// declared ones come first, in the order they were declared, then the adopted ones by name.
    ///
    /// ```swift
    /// let indexes = try store.read { accessor in try accessor.indexes(ofType: "User") }
    /// ```
    ///
    /// - Throws: ``DataStoreError/Code/invalidArgument`` for an invalid type name.
    public func indexes(ofType itemType: String) throws -> [DataStoreIndex] {
        try checkActiveAndFlushPendingChanges()
        try context.locating { try NameRules.validateItemType(itemType) }
        return try currentIndexes(ofType: itemType)
    }

    /// The engine's indexes of the type, or the scheduler's declarations and this block's. Types
    /// match as Swift strings, as the scheduler's catalog and the in-memory store match them.
    func currentIndexes(ofType itemType: String) throws -> [DataStoreIndex] {
        if let own = try context.locating({ try reader.indexes(ofType: itemType) }) { return own }
        return context.catalog.indexes(ofType: itemType)
            + context.declaredIndexes.filter { $0.itemType == itemType }
    }
}

extension DataStoreReadWriteAccessor {
    /// Declares an index of `itemType` on `attributes` (in that order), unique or not, and returns
    /// `true` when it was created; `false` when an index already satisfied it. Calling it again is
    /// harmless, so an application may declare its indexes in a write block at every launch.
    ///
    /// A unique index refuses every later write that would give two items of the type equal
    /// values for all of `attributes` (<doc:Indexes>). On an SQL store it is a real `CREATE
    /// INDEX`; on a key-value file an index kept in the file, which equality queries on its
    /// attributes use.
    ///
    /// ```swift
    /// try store.writeSync { accessor in
    ///     try accessor.ensureIndex(ofType: "Restaurant", on: ["city"], unique: false)
    ///     try accessor.ensureIndex(ofType: "User", on: ["email"], unique: true)
    /// }
    /// ```
    ///
    /// - Throws: ``DataStoreError/Code/uniqueViolation`` naming items that already share values,
    ///   for a unique index (nothing is declared); ``DataStoreError/Code/invalidArgument`` for an
    ///   invalid type name, no attributes, an invalid or repeated attribute name (two Unicode
    ///   spellings of one name repeat it: an item holds them as one attribute).
    @discardableResult
    public func ensureIndex(ofType itemType: String, on attributes: [String], unique: Bool) throws -> Bool {
        try checkActiveAndFlushPendingChanges()
        try context.locating {
            try NameRules.validateItemType(itemType)
            guard !attributes.isEmpty else {
                throw DataStoreError.invalidArgument("an index of \(itemType) needs at least one attribute")
            }
            // Keyed by Swift's equality, as an item's attributes are: two spellings of one name are
            // one attribute to an item, which cannot hold both, so they repeat it too.
            var seen: [String: String] = [:]
            for name in attributes {
                try NameRules.validateAttribute(name, of: itemType)
                guard let earlier = seen.updateValue(name, forKey: name) else { continue }
                let spelling = earlier.utf8.elementsEqual(name.utf8) ? "" : ", the second time as "
                    + "\(NameSpellings.describe(name)), another spelling that an item holds as the same attribute"
                throw DataStoreError.invalidArgument(
                    "the index of \(itemType) names the attribute \(NameSpellings.describe(earlier)) twice\(spelling)")
            }
        }
        let index = DataStoreIndex(itemType: itemType, attributes: attributes, isUnique: unique)
        // Every spelling: on most stores an index of one spelling of a name is an index of all.
        uniqueIndexCache.removeAll()
        if let created = try context.locating({ try writer.ensureIndex(index) }) { return created }
        if try currentIndexes(ofType: itemType).contains(where: { $0.satisfies(attributes: attributes, unique: unique) }) {
            return false
        }
        if unique, let shared = try context.locating({ try UniqueIndexes.duplicates(for: index, in: writer) }) {
            throw UniqueIndexes.existingDuplicates(index, shared).located(at: context.location)
        }
        context.declaredIndexes.append(index)
        return true
    }

    /// The unique indexes of the type, cached for the block.
    func uniqueIndexes(ofType itemType: String) throws -> [DataStoreIndex] {
        // Looked up without building a key per write: most blocks write one type many times.
        if let cached = uniqueIndexCache[itemType], cached.spelling.utf8.elementsEqual(itemType.utf8) {
            return cached.indexes
        }
        let unique = try currentIndexes(ofType: itemType).filter(\.isUnique)
        uniqueIndexCache[itemType] = (itemType, unique)
        return unique
    }

    /// Refuses `item` when another item holds its values for a unique index, before it is written,
    /// unless the engine refuses such writes itself.
    func checkUnique(_ item: Item) throws {
        guard !writer.enforcesUniqueIndexes else { return }
        for index in try uniqueIndexes(ofType: item.itemType) {
            guard let values = UniqueIndexes.values(of: item, for: index) else { continue }
            if let holder = try UniqueIndexes.holder(of: values, for: index, in: writer, excluding: [item.id]) {
                throw UniqueIndexes.violation(index, [item.reference, ItemReference(itemType: item.itemType, id: holder)],
                                              values: values)
            }
        }
    }

    /// Refuses a set-based update that would make items share the values of a unique index, with
    /// each other or with an item it leaves alone, before anything is written.
    func checkUnique(updating request: DataStoreRequest, setting values: [String: Value]) throws {
        guard !writer.enforcesUniqueIndexes else { return }
        // Names as the item's attributes match them, as Swift strings: setting "e\u{301}mail"
        // changes the value an index on "\u{E9}mail" holds.
        let touched = try uniqueIndexes(ofType: request.itemType).filter { index in
            index.attributes.contains { values[$0] != nil }
        }
        guard !touched.isEmpty else { return }
        let updated = try writer.items(matching: request).map { $0.setting(values) }
        let selected = Set(updated.map(\.id))
        for index in touched {
            if let conflict = try UniqueIndexes.conflict(among: updated, selected: selected, for: index, in: writer) {
                throw conflict
            }
        }
    }
}
