/// What ``GDBMDataStore/recover(path:keepBackup:logger:)`` did: GDBM's own counts from `gdbm_recover`.
///
/// ```swift
/// let report = try GDBMDataStore.recover(path: "legacy.db")
/// print("kept \(report.recoveredKeys) records, lost \(report.failedKeys)")
/// if let backup = report.backupPath { print("the damaged original is at \(backup)") }
/// ```
public struct GDBMRecoveryReport: Sendable, Hashable {
    /// Records copied into the rebuilt file.
    public var recoveredKeys: Int
    /// Hash buckets read successfully.
    public var recoveredBuckets: Int
    /// Records that could not be read and are lost.
    public var failedKeys: Int
    /// Hash buckets that could not be read; their records are lost.
    public var failedBuckets: Int
    /// Keys found more than once; the first copy was kept.
    public var duplicateKeys: Int
    /// Where the damaged original was moved, when a backup was kept.
    public var backupPath: String?
    /// Why the entries of the file's declared indexes could not be rebuilt from the recovered
    /// items after the recovery, if they could not (`nil` when they were, or the file has none).
    public var indexError: String?
    /// Whether the file declared relations (its format version is 3 or more) and GDBM could not
    /// recover the record that lists them: the file declares none now, and they must be declared
    /// again (`ensureRelation(ofType:on:to:onDelete:)`).
    ///
    /// ```swift
    /// if try GDBMDataStore.recover(path: "music.gdbm").lostRelationRecord { print("declare the relations again") }
    /// ```
    public var lostRelationRecord = false

    /// Makes a report.
    public init(recoveredKeys: Int, recoveredBuckets: Int, failedKeys: Int, failedBuckets: Int,
                duplicateKeys: Int, backupPath: String?) {
        self.recoveredKeys = recoveredKeys
        self.recoveredBuckets = recoveredBuckets
        self.failedKeys = failedKeys
        self.failedBuckets = failedBuckets
        self.duplicateKeys = duplicateKeys
        self.backupPath = backupPath
    }
}
