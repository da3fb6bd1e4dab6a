import Persist

extension SQLiteDataStore {
    /// Whether `error` is SQLite's `SQLITE_READONLY_ROLLBACK`: the database has a hot journal (a
    /// `-journal` file left by a writer that stopped in the middle of a transaction), which a
    /// read-only connection cannot roll back, so the database cannot be read until a connection
    /// that may write it opens it once.
    ///
    /// ```swift
    /// do { try store.setup() } catch let error as DataStoreError where SQLiteDataStore.isHotJournal(error) {
    ///     print("open it once read-write to roll the unfinished transaction back")
    /// }
    /// ```
    package static func isHotJournal(_ error: DataStoreError) -> Bool {
        error.engineCode == Int(SQLiteErrors.hotJournal)
    }
}
