internal import HashTreeCollections

/// The engine of a ``ChildDataStore``: the child's own changes, read through one snapshot of the
/// parent's committed state per block.
final class ChildEngine: DataStoreEngine {
    let parent: any DataStore
    let location: String
    private let committed = Locked(ChildChanges())
    /// Indexes the child declared, to declare in the parent at the merge.
    private let declared = Locked<[DataStoreIndex]>([])
    /// Relations the child declared, to declare in the parent at the merge.
    private let declaredRelationList = Locked<[DataStoreRelation]>([])
    /// The identifiers the family of stores handed out, shared with the parent.
    private let reservations: IDReservations

    init(parent: any DataStore, reservations: IDReservations) {
        self.parent = parent
        self.reservations = reservations
        location = "child of \(parent.location)"
    }

    func open() throws {}
    func close() throws {}

    func read<T>(_ body: (any StoreReader) throws -> T) throws -> T {
        let changes = committed.withLock { $0 }
        let indexes = declared.value
        let relations = declaredRelationList.value
        return try parent.read { accessor in
            try body(ChildOverlay(parent: accessor, changes: changes, declaredIndexes: indexes, declaredRelations: relations))
        }
    }

    func write<T>(_ body: (any StoreWriter) throws -> (value: T, commit: Bool)) throws -> T {
        let changes = committed.withLock { $0 }
        let indexes = declared.value
        let relations = declaredRelationList.value
        return try parent.read { accessor in
            let transaction = ChildOverlay(parent: accessor, changes: changes, declaredIndexes: indexes,
                                           declaredRelations: relations, reservations: reservations)
            let (value, commit) = try body(transaction)
            if commit {
                let updated = transaction.changes
                let updatedIndexes = transaction.declaredIndexes
                let updatedRelations = transaction.declaredRelations
                committed.withLock { $0 = updated }
                declared.withLock { $0 = updatedIndexes }
                declaredRelationList.withLock { $0 = updatedRelations }
            }
            return value
        }
    }

    /// Every change, for merging.
    var changes: ChildChanges { committed.withLock { $0 } }

    /// The indexes declared in the child, for merging.
    var declaredIndexes: [DataStoreIndex] { declared.value }

    /// The relations declared in the child, for merging.
    var declaredRelations: [DataStoreRelation] { declaredRelationList.value }

    /// How many items the child has changed.
    var changeCount: Int { committed.withLock { $0.values.reduce(0) { $0 + $1.count } } }

    /// Forgets every change.
    func clear() {
        committed.withLock { $0 = ChildChanges() }
        declared.withLock { $0 = [] }
        declaredRelationList.withLock { $0 = [] }
    }
}
