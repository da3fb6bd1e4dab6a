/// SQLite's storage classes of a non-null value.
enum StorageClass: Sendable {
    case integer, real, text, blob
}
