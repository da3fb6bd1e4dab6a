/// An engine whose failures include conditions that pass by themselves, besides a lock (which
/// every engine's live queries wait out): a server with no connection slot free, or one that is
/// restarting. A live query whose refresh meets one runs again a poll interval later instead of
/// ending. Package API, for the PostgreSQL engine.
package protocol TransientFailures: DataStoreEngine {
    /// Whether `error` passes by itself, so that trying again later may succeed.
    func isTransient(_ error: DataStoreError) -> Bool
}
