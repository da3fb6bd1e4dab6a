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
        /// Items read from the source.
        public var read: Int
        /// Items written to the target (in a dry run: items that would be written).
        public var written: Int
        /// Items left out because the target already held them (`ifExists: .skip`), or in a dry
        /// run, items the target already holds.
        public var skipped: Int
        /// The bytes of the items read: identifiers and attribute values as stores keep them
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

    /// Items read, over every type.
    public var read: Int { types.reduce(0) { $0 + $1.read } }
    /// Items written, over every type.
    public var written: Int { types.reduce(0) { $0 + $1.written } }
    /// Items skipped, over every type.
    public var skipped: Int { types.reduce(0) { $0 + $1.skipped } }
    /// Bytes read, over every type (see ``TypeReport/bytes``).
    public var bytes: Int { types.reduce(0) { $0 + $1.bytes } }
    /// Seconds the verification took, over every type.
    public var verificationSeconds: TimeInterval { types.reduce(0) { $0 + $1.verificationSeconds } }
    /// Whether every type was verified.
    public var verified: Bool { !types.isEmpty && types.allSatisfy(\.verified) }
}
