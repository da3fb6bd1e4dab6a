import Logging
import Persist

extension GDBMDataStore {
    /// How a ``GDBMDataStore`` opens its file.
    ///
    /// ```swift
    /// var options = GDBMDataStore.Options()
    /// options.durability = .full                 // fsync every commit
    /// options.lockWait = .seconds(2)             // wait for another process to let go
    /// let store = GDBMDataStore(path: "app.gdbm", options: options)
    ///
    /// let legacy = GDBMDataStore(path: "legacy.db",
    ///                            options: .init(readOnly: true, layout: .raw(itemType: "Entry", attribute: "value")))
    /// ```
    public struct Options: Sendable {
        /// How items map to the file's key/value pairs.
        public enum Layout: Sendable, Hashable, CustomStringConvertible {
            /// Persist's own layout: every item type in one file, typed keys and versioned records
            /// (see <doc:GDBMFileFormat>).
            case native
            /// For files written by other programs: every key/value pair is an item of `itemType`
            /// whose identifier is the key's exact bytes (`.bytes`) and whose one attribute,
            /// `attribute`, holds the value's exact bytes (`.bytes`).
            case raw(itemType: String = "Entry", attribute: String = "value")

            /// `native`, or `raw(Type.attribute)`, for messages and logs.
            public var description: String {
                switch self {
                case .native: "native"
                case .raw(let itemType, let attribute): "raw(\(itemType).\(attribute))"
                }
            }

            func codec() throws -> GDBMLayoutCodec {
                switch self {
                case .native:
                    return .native
                case .raw(let itemType, let attribute):
                    try NameRules.validateItemType(itemType)
                    try NameRules.validateAttribute(attribute, of: itemType)
                    return .raw(itemType: itemType, attribute: attribute)
                }
            }
        }

        /// How durable a returned `writeSync` is: `Durability.normal` survives a crash of the
        /// process; `Durability.full` also survives a power loss (the journal and the file are synced).
        public var durability: Durability
        /// Open with GDBM's shared reader lock; every write throws `DataStoreError.Code.readOnly`.
        public var readOnly: Bool
        /// Create the file when it does not exist (ignored when ``readOnly``).
        public var createIfMissing: Bool
        /// How items map to the file's key/value pairs.
        public var layout: Layout
        /// How long `setup()` waits for another process (or store) holding the file before it
        /// throws `DataStoreError.Code.locked`; zero fails at once.
        public var lockWait: Duration
        /// Where the store logs: journal replays, torn journals discarded and recoveries at notice
        /// level, a commit that failed half-way as an error, files created or adopted and
        /// lifecycle events at debug level. The default logs nothing.
        public var logger: Logger

        /// Options with the given values; the defaults open or create a native-layout file for
        /// reading and writing with `Durability.normal` and no lock wait.
        public init(
            durability: Durability = .normal,
            readOnly: Bool = false,
            createIfMissing: Bool = true,
            layout: Layout = .native,
            lockWait: Duration = .zero,
            logger: Logger = Logger(label: "persist.gdbm", factory: { _ in SwiftLogNoOpLogHandler() })
        ) {
            self.durability = durability
            self.readOnly = readOnly
            self.createIfMissing = createIfMissing
            self.layout = layout
            self.lockWait = lockWait
            self.logger = logger
        }
    }
}
