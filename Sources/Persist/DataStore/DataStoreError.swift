import Foundation

/// The one error type every store throws.
///
/// Each error has a pattern-matchable ``code``, a message that says what happened and what to do,
/// and, where they apply, the file's path, the engine's own result code and message, and the items
/// concerned.
///
/// ```swift
/// do {
///     try store.writeSync { accessor in try accessor.insert(item) }
/// } catch let error as DataStoreError where error.code == .alreadyExists {
///     print("already stored:", error.items)
/// }
///
/// // or by code alone:
/// do { try store.setup() } catch DataStoreError.locked { print("busy, try later") }
/// ```
public struct DataStoreError: Error, Sendable, Hashable {
    /// What kind of failure this is.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// A file, item or item type that was required does not exist.
        case notFound
        /// An item with this type and identifier is already stored.
        case alreadyExists
        /// Another process or connection holds a lock on the store.
        case locked
        /// The file or a record in it is damaged or not in the expected format.
        case corrupt
        /// A value does not have the kind its column or model requires.
        case typeMismatch
        /// A merge found items changed on both sides.
        case conflict
        /// A write would give two items of one type the same values for the attributes of a unique
        /// index; ``DataStoreError/items`` names the item written and the one already holding the
        /// values, and nothing of the write is stored (see <doc:Indexes>).
        case uniqueViolation
        /// A write block left an item referring, through a relation, to an item that does not
        /// exist, or deleted an item that a `.deny` relation still refers to;
        /// ``DataStoreError/items`` names the referring item and the item referred to, and
        /// nothing of the block is stored (see <doc:Relations>).
        case referenceViolation
        /// The operating system reported an input/output failure (including a full disk).
        case io
        /// The store or file was opened read-only and a write was attempted.
        case readOnly
        /// The API was used in a way it does not allow (an accessor after its block, a nested write, …).
        case misuse
        /// An argument is invalid (a negative limit, an empty type name, …).
        case invalidArgument
        /// The store does not support the operation, or the file uses a newer format.
        case unsupported
    }

    /// What kind of failure this is.
    public var code: Code
    /// A sentence for people: what happened and, where it helps, what to do.
    public var message: String
    /// The path of the file concerned, or a server store's location (its URL without a
    /// password), when there is one.
    public var path: String?
    /// The engine's own result code (a database's result code, a file library's error number, a server's SQLSTATE), when there is one.
    public var engineCode: Int?
    /// The engine's own error text, when there is one.
    public var engineMessage: String?
    /// The items concerned: conflicting items for ``Code/conflict``, the duplicate for
    /// ``Code/alreadyExists``, the items sharing a unique index's values for
    /// ``Code/uniqueViolation``, the referring and the referred item for
    /// ``Code/referenceViolation``, the undecodable record for ``Code/corrupt``.
    public var items: [ItemReference]

    /// Makes an error.
    ///
    /// ```swift
    /// throw DataStoreError(.notFound, "no database at \(path)", path: path)
    /// ```
    public init(
        _ code: Code,
        _ message: String,
        path: String? = nil,
        engineCode: Int? = nil,
        engineMessage: String? = nil,
        items: [ItemReference] = []
    ) {
        self.code = code
        self.message = message
        self.path = path
        self.engineCode = engineCode
        self.engineMessage = engineMessage
        self.items = items
    }
}

extension DataStoreError.Code {
    /// Matches an error against a code, so that `catch DataStoreError.locked` works.
    public static func ~= (code: DataStoreError.Code, error: any Error) -> Bool {
        (error as? DataStoreError)?.code == code
    }
}

extension DataStoreError {
    /// The code ``Code/notFound``, for `catch DataStoreError.notFound`.
    public static let notFound = Code.notFound
    /// The code ``Code/alreadyExists``, for `catch DataStoreError.alreadyExists`.
    public static let alreadyExists = Code.alreadyExists
    /// The code ``Code/locked``, for `catch DataStoreError.locked`.
    public static let locked = Code.locked
    /// The code ``Code/corrupt``, for `catch DataStoreError.corrupt`.
    public static let corrupt = Code.corrupt
    /// The code ``Code/typeMismatch``, for `catch DataStoreError.typeMismatch`.
    public static let typeMismatch = Code.typeMismatch
    /// The code ``Code/conflict``, for `catch DataStoreError.conflict`.
    public static let conflict = Code.conflict
    /// The code ``Code/uniqueViolation``, for `catch DataStoreError.uniqueViolation`.
    public static let uniqueViolation = Code.uniqueViolation
    /// The code ``Code/referenceViolation``, for `catch DataStoreError.referenceViolation`.
    public static let referenceViolation = Code.referenceViolation
    /// The code ``Code/io``, for `catch DataStoreError.io`.
    public static let io = Code.io
    /// The code ``Code/readOnly``, for `catch DataStoreError.readOnly`.
    public static let readOnly = Code.readOnly
    /// The code ``Code/misuse``, for `catch DataStoreError.misuse`.
    public static let misuse = Code.misuse
    /// The code ``Code/invalidArgument``, for `catch DataStoreError.invalidArgument`.
    public static let invalidArgument = Code.invalidArgument
    /// The code ``Code/unsupported``, for `catch DataStoreError.unsupported`.
    public static let unsupported = Code.unsupported
}

extension DataStoreError: CustomStringConvertible {
    /// The code, the message, and the path and engine details when present.
    public var description: String {
        var text = "\(code): \(message)"
        // A server store's location is its URL (without a password): not a file.
        if let path, !message.contains(path) { text += path.contains("://") ? " (server: \(path))" : " (file: \(path))" }
        if let engineCode {
            text += " [engine code \(engineCode)"
            if let engineMessage { text += ": \(engineMessage)" }
            text += "]"
        } else if let engineMessage {
            text += " [\(engineMessage)]"
        }
        return text
    }
}

extension DataStoreError: LocalizedError {
    /// The same text as ``description``, so `localizedDescription` is useful too.
    public var errorDescription: String? { description }
}

extension DataStoreError {
    static func misuse(_ message: String) -> DataStoreError {
        DataStoreError(.misuse, message)
    }

    static func invalidArgument(_ message: String) -> DataStoreError {
        DataStoreError(.invalidArgument, message)
    }
}

extension DataStoreError {
    /// The error with `location` as its path, named in the message, unless it has a path.
    func located(at location: String) -> DataStoreError {
        guard path == nil else { return self }
        var located = self
        located.path = location
        located.message += " (store \(location))"
        return located
    }
}
