/// What ``Migration`` copies and how.
///
/// ```swift
/// var options = MigrationOptions()
/// options.itemTypes = ["Restaurant", "Review"]
/// options.ifExists = .skip
/// options.batchSize = 10_000
/// options.reshape = MigrationReshape([.renameType("Review", to: "Rating")])
/// options.transform = { item in
///     item["draft"] == .bool(true) ? nil : item   // leave drafts out
/// }
/// ```
public struct MigrationOptions: Sendable {
    /// What to do with an item whose type and identifier the target already holds.
    public enum ExistingItems: String, Sendable, Hashable, CaseIterable {
        /// Stop before writing anything, with ``DataStoreError/Code/alreadyExists`` (the default).
        case fail
        /// Overwrite the target's item with the source's.
        case replace
        /// Keep the target's item and leave the source's out.
        case skip
    }

    /// The item types to copy; every type of the source when `nil`.
    public var itemTypes: [String]?
    /// What to do with items the target already holds.
    public var ifExists: ExistingItems
    /// How many items each target write block holds. Must be at least 1.
    public var batchSize: Int
    /// Whether to check, after copying, that the target holds exactly what was written.
    public var verify: Bool
    /// Do everything a real run does, in the same write blocks, and roll each block back: the
    /// target's rules apply (names it refuses, items it cannot hold, existing items with
    /// ``ExistingItems/fail``), so a dry run fails where the real run would, and the report says
    /// what would have been written and skipped. Nothing is verified, since nothing stays.
    public var dryRun: Bool
    /// Write everything in one target write block, so that the target is untouched unless the
    /// whole copy commits. ``batchSize`` then only sets how many items are read between writes.
    public var atomic: Bool
    /// Whether the source's relations are declared on the target after the load (the default), so
    /// that an SQL target gets its foreign keys back and every target keeps enforcing them
    /// (<doc:Relations>). A source whose items break one of its own relations then fails the run
    /// with ``DataStoreError/Code/referenceViolation`` naming the first broken reference. `false`
    /// copies the items without them.
    public var carriesRelations = true
    /// Types and attributes renamed or dropped on the way (none by default). Applied to every item
    /// read, after ``decode`` and before ``transform``; see ``MigrationReshape``.
    public var reshape: MigrationReshape
    /// Gives the item to write for each item read (after ``reshape``), or `nil` to leave it out;
    /// `nil` (the default) copies items as they are.
    ///
    /// ```swift
    /// options.transform = { item in
    ///     guard case .string(let email)? = item["email"] else { return item }
    ///     var copy = item
    ///     copy["email"] = .string(email.lowercased())
    ///     return copy
    /// }
    /// ```
    ///
    /// It runs on the migration's reading thread, once for every item read (and again for the
    /// items a check or verification reads a second time), so it must give the same result for the
    /// same item. It may change the type, the identifier and the attributes. Verification compares
    /// the transformed items with the target. Items left out are counted in
    /// ``MigrationReport/TypeReport/omitted``, under their source type. When it throws, the run
    /// stops with ``DataStoreError/Code/invalidArgument`` naming the item, before that item's
    /// batch is written; with ``atomic`` (or in `persist-migrate`) nothing at all is written.
    /// With ``atomic``, it runs while the target's one write block waits for it: writing to the
    /// target from it, or merging a child into the target, would wait for that block, so it
    /// throws ``DataStoreError/Code/misuse`` there, and the run stops as for any other error of
    /// the transform.
    public var transform: (@Sendable (Item) throws -> Item?)?
    /// Turns each item read into the item ``reshape`` sees: for attributes the source keeps
    /// encoded (a JSON text, a packed field), so that the rules name the decoded attributes and
    /// are checked and counted on them. `nil` (the default) gives the rules the items as read.
    ///
    /// ```swift
    /// options.decode = { item in
    ///     // "Ada Lovelace" in `name` becomes `first` and `last`.
    ///     guard case .string(let name)? = item["name"], let space = name.firstIndex(of: " ") else { return item }
    ///     var decoded = item
    ///     decoded["name"] = nil
    ///     decoded["first"] = .string(String(name[..<space]))
    ///     decoded["last"] = .string(String(name[name.index(after: space)...]))
    ///     return decoded
    /// }
    /// options.reshape = MigrationReshape([.renameAttribute("last", ofType: "Person", to: "surname")])
    /// ```
    ///
    /// It runs under the same rules as ``transform``: once for every item read, on the reading
    /// thread, giving the same result for the same item, and an error it throws stops the run
    /// naming the item. A run that decodes or transforms items recreates no table from the
    /// source's schema: the target makes its tables from the items.
    public var decode: (@Sendable (Item) throws -> Item)?
    /// Runs once every item is written: with ``atomic``, inside the one write block, after
    /// verification and before the commit, so that an error it throws rolls everything back;
    /// otherwise after the last batch commits. The run ends with the error it throws. `nil` (the
    /// default) checks nothing.
    ///
    /// ```swift
    /// let before = try FileManager.default.attributesOfItem(atPath: "old.db")[.modificationDate] as? Date
    /// options.atomic = true
    /// options.beforeCommit = {
    ///     let now = try FileManager.default.attributesOfItem(atPath: "old.db")[.modificationDate] as? Date
    ///     if now != before { throw DataStoreError(.locked, "old.db changed while it was copied") }
    /// }
    /// ```
    public var beforeCommit: (@Sendable () throws -> Void)?

    /// The defaults: every type, `ifExists: .fail`, batches of 5,000, verification on, not atomic.
    public init(
        itemTypes: [String]? = nil,
        ifExists: ExistingItems = .fail,
        batchSize: Int = 5_000,
        verify: Bool = true,
        dryRun: Bool = false,
        atomic: Bool = false,
        reshape: MigrationReshape = MigrationReshape(),
        transform: (@Sendable (Item) throws -> Item?)? = nil
    ) {
        self.itemTypes = itemTypes
        self.ifExists = ifExists
        self.batchSize = batchSize
        self.verify = verify
        self.dryRun = dryRun
        self.atomic = atomic
        self.reshape = reshape
        self.transform = transform
    }
}
