import Foundation

/// What a ``Migration`` did, per item type and in total.
///
/// ```swift
/// let report = try Migration(source: old, target: new).run()
/// for type in report.types { print(type.itemType, type.read, type.written, type.skipped) }
/// ```
public struct MigrationReport: Sendable, Hashable {
    /// What happened to one item type.
    public struct TypeReport: Sendable, Hashable {
        /// The item type.
        public var itemType: String
        /// Items read from the source: for a type that ``MigrationOptions/reshape`` or
        /// ``MigrationOptions/transform`` renames, those that arrive under this name, plus the items
        /// of this source type that the transform left out.
        public var read: Int
        /// Items written to the target (in a dry run: items that would be written).
        public var written: Int
        /// Items left out because the target already held them (`ifExists: .skip`), or in a dry
        /// run, items the target already holds.
        public var skipped: Int
        /// Items of this source type that ``MigrationOptions/transform`` left out (returned `nil`
        /// for); they are also counted in ``read``.
        public var omitted: Int
        /// The bytes of the items read, as they are written (after the reshape and the transform): identifiers and attribute values as stores keep them
        /// (UTF-8 bytes of strings, bytes, 8 per number or date, 1 per boolean, the elements of
        /// arrays and objects); attribute names are not counted.
        public var bytes: Int
        /// Seconds spent writing this type's items into the target (its share of the copy).
        public var seconds: TimeInterval
        /// Whether the target was checked to hold exactly what was written; `false` when
        /// verification was off or in a dry run.
        public var verified: Bool
        /// Seconds the verification of this type took; 0 when it was not verified.
        public var verificationSeconds: TimeInterval
        /// The checksum of the items read from the source; empty when verification was off.
        public var sourceChecksum: ItemChecksum
    }

    /// One entry per item type, in the order they were copied.
    public var types: [TypeReport]
    /// Whether this was a dry run (nothing was written).
    public var dryRun: Bool
    /// Seconds the whole run took.
    public var seconds: TimeInterval
    /// Columns of recreated tables whose declared type could not keep some value and took a
    /// lossless fallback instead (no value is ever dropped); empty when every value fit.
    public var fallbacks: [Fallback]
    /// Each rule of ``MigrationOptions/reshape``, in the order given, with the number of items
    /// read that it applied to.
    public var reshape: [RuleReport]
    /// The types of ``MigrationOptions/itemTypes`` that the source does not have (no item of the
    /// type, and no table of that name), in the order given: a misspelled type, most often. They
    /// are not errors, as a copy of nothing of them is right; the report of such a type reads 0.
    public var absentTypes: [String] = []
    /// The source's relations declared on the target, as the target names them (after
    /// ``MigrationOptions/reshape``), in the order declared; empty when
    /// ``MigrationOptions/carriesRelations`` is `false`.
    ///
    /// ```swift
    /// for relation in report.relations { print("relation:", relation) }
    /// ```
    public var relations: [DataStoreRelation] = []
    /// A sentence for each relation of the source the run left out (a type not copied, a referring
    /// attribute dropped, ``MigrationOptions/carriesRelations`` off) or carried with another rule
    /// (an adopted foreign key's `SET DEFAULT` becomes `deny`).
    public var relationNotes: [String] = []
    /// What ``MigrationOptions/reshape`` changed in the tables recreated from the source's schema
    /// (see <doc:SchemaFaithfulMigrations>) beyond the names its rules give, one sentence each: an
    /// index or a UNIQUE constraint left out because it listed a dropped column, or a table made
    /// from its items instead, because a rule names its key column; and, for each adopted SQL table
    /// copied, what the copy does not carry (its column defaults, CHECK constraints, foreign keys,
    /// `AUTOINCREMENT`, triggers, partial or expression indexes, `DESC`, …).
    ///
    /// ```swift
    /// for note in report.schemaNotes { print("note:", note) }
    /// ```
    public var schemaNotes: [String] = []

    /// What one rule of ``MigrationOptions/reshape`` did.
    public struct RuleReport: Sendable, Hashable {
        /// The rule.
        public var rule: MigrationReshape.Rule
        /// The items it applied to: every item of the type for a type's rename, the items that
        /// had the attribute for an attribute's rename or drop.
        public var items: Int

        /// A report of `rule` applying to `items` items.
        public init(rule: MigrationReshape.Rule, items: Int) {
            self.rule = rule
            self.items = items
        }
    }

    /// A report of `types`.
    public init(types: [TypeReport], dryRun: Bool, seconds: TimeInterval, reshape: [RuleReport] = [],
                fallbacks: [Fallback] = []) {
        self.types = types
        self.dryRun = dryRun
        self.seconds = seconds
        self.reshape = reshape
        self.fallbacks = fallbacks
    }

    /// The rules of ``MigrationOptions/reshape`` that applied to no item read (a type the source
    /// does not hold, or an attribute none of its items has), in the order given. They are not
    /// errors: the same rules may serve several sources.
    public var unusedRules: [MigrationReshape.Rule] { reshape.filter { $0.items == 0 }.map(\.rule) }

    /// Items read, over every type.
    public var read: Int { types.reduce(0) { $0 + $1.read } }
    /// Items written, over every type.
    public var written: Int { types.reduce(0) { $0 + $1.written } }
    /// Items skipped, over every type.
    public var skipped: Int { types.reduce(0) { $0 + $1.skipped } }
    /// Items the transform left out, over every type.
    public var omitted: Int { types.reduce(0) { $0 + $1.omitted } }
    /// Bytes read, over every type (see ``TypeReport/bytes``).
    public var bytes: Int { types.reduce(0) { $0 + $1.bytes } }
    /// Seconds the verification took, over every type.
    public var verificationSeconds: TimeInterval { types.reduce(0) { $0 + $1.verificationSeconds } }
    /// Whether the target was checked to hold exactly what was copied: every type was verified,
    /// or, when the source held nothing to copy, verification ran (it is off in a dry run and with
    /// ``MigrationOptions/verify`` false).
    public var verified: Bool { types.isEmpty ? verifiedEmptyCopy : types.allSatisfy(\.verified) }
    /// Whether verification ran on a copy of no items, for ``verified``.
    var verifiedEmptyCopy = false
}
