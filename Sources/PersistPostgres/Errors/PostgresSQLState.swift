/// A PostgreSQL SQLSTATE: the five-character error code the server sends with every error, such
/// as `23505` (unique violation) or `40001` (serialization failure).
///
/// A `DataStoreError` from a PostgreSQL store carries it twice: at the start of
/// `engineMessage` (`"23505: duplicate key value violates unique constraint …"`), and as the
/// integer `engineCode`, in the encoding the server itself uses internally (`MAKE_SQLSTATE` in
/// PostgreSQL's `elog.h`): each character `c` becomes the six bits `c - '0'`, the first character
/// in the lowest bits. The encoding is stable and reversible:
///
/// ```swift
/// do {
///     try store.writeSync { accessor in try accessor.insert(item) }
/// } catch let error as DataStoreError {
///     if let engineCode = error.engineCode, PostgresSQLState(engineCode: engineCode)?.code == "23505" {
///         print("a unique constraint rejected the row")
///     }
///     // or compare integers directly:
///     if error.engineCode == PostgresSQLState.uniqueViolation.engineCode { … }
/// }
/// ```
///
/// Conditions libpq detects on the client side, without a server error, get the standard codes
/// other PostgreSQL drivers report for them: `08001` when no connection could be made, `08006`
/// when an open connection was lost.
public struct PostgresSQLState: Sendable, Hashable, CustomStringConvertible {
    /// The five characters, digits and upper-case letters: `"23505"`.
    public let code: String

    /// The SQLSTATE spelled by `code`, or `nil` unless it is five digits or upper-case letters.
    ///
    /// ```swift
    /// let state = PostgresSQLState("40001")   // serialization failure
    /// ```
    public init?(_ code: String) {
        let characters = Array(code.utf8)
        guard characters.count == 5, characters.allSatisfy(Self.isCodeCharacter) else { return nil }
        self.code = code
    }

    /// The SQLSTATE whose ``engineCode`` is `engineCode`, or `nil` when it is not one.
    ///
    /// ```swift
    /// PostgresSQLState(engineCode: error.engineCode ?? 0)?.code   // "23505"
    /// ```
    public init?(engineCode: Int) {
        guard engineCode >= 0, engineCode < 1 << 30 else { return nil }
        var characters: [UInt8] = []
        for index in 0..<5 {
            let character = UInt8((engineCode >> (6 * index)) & 0x3F) + UInt8(ascii: "0")
            guard Self.isCodeCharacter(character) else { return nil }
            characters.append(character)
        }
        self.init(String(decoding: characters, as: UTF8.self))
    }

    /// The integer form used as `DataStoreError.engineCode`: six bits a character, the first
    /// character lowest (PostgreSQL's own `MAKE_SQLSTATE`).
    ///
    /// ```swift
    /// PostgresSQLState.uniqueViolation.engineCode   // the engineCode of a duplicate key error
    /// ```
    public var engineCode: Int {
        var value = 0
        for (index, character) in code.utf8.enumerated() {
            value |= Int((character &- UInt8(ascii: "0")) & 0x3F) << (6 * index)
        }
        return value
    }

    /// The class: the first two characters (`"23"` for integrity constraint violations).
    ///
    /// ```swift
    /// PostgresSQLState("22003")?.errorClass   // "22", data exception
    /// ```
    public var errorClass: String { String(code.prefix(2)) }

    /// The five characters.
    public var description: String { code }

    private static func isCodeCharacter(_ character: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(character)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(character)
    }

    fileprivate init(known code: StaticString) {
        self.code = code.description
    }

    /// `08001`: no connection could be made (reported by the client).
    public static let unableToConnect = PostgresSQLState(known: "08001")
    /// `08006`: an open connection was lost (reported by the client).
    public static let connectionFailure = PostgresSQLState(known: "08006")
    /// `23503`: a foreign key rejected a row, or the deletion of a row it refers to.
    public static let foreignKeyViolation = PostgresSQLState(known: "23503")
    /// `23505`: a unique constraint or primary key rejected a row.
    public static let uniqueViolation = PostgresSQLState(known: "23505")
    /// `42704`: an object the statement names, such as a type, does not exist.
    public static let undefinedObject = PostgresSQLState(known: "42704")
    /// `3F000`: a schema the statement names does not exist.
    public static let invalidSchemaName = PostgresSQLState(known: "3F000")
    /// `40001`: a concurrent transaction made this one impossible to serialize.
    public static let serializationFailure = PostgresSQLState(known: "40001")
    /// `40P01`: a deadlock was detected and this transaction was chosen to fail.
    public static let deadlockDetected = PostgresSQLState(known: "40P01")
    /// `55P03`: a lock could not be taken in time (`lock_timeout`, `NOWAIT`).
    public static let lockNotAvailable = PostgresSQLState(known: "55P03")
    /// `25P02`: an earlier statement of the transaction failed, so it runs no other.
    public static let inFailedTransaction = PostgresSQLState(known: "25P02")
    /// `57014`: the statement was canceled (statement timeout or cancel request).
    public static let queryCanceled = PostgresSQLState(known: "57014")
    /// `28P01`: the password was wrong.
    public static let invalidPassword = PostgresSQLState(known: "28P01")
    /// `28000`: the server refused the login (no password given, no pg_hba.conf rule, …).
    public static let invalidAuthorization = PostgresSQLState(known: "28000")
    /// `3D000`: the database does not exist.
    public static let invalidCatalogName = PostgresSQLState(known: "3D000")
    /// `42P01`: the table does not exist.
    public static let undefinedTable = PostgresSQLState(known: "42P01")
}

extension PostgresSQLState {
    /// `XX000`: for a failure libpq reports itself on a healthy connection (internal error).
    static let clientError = PostgresSQLState(known: "XX000")
    /// `42501`: the role lacks a privilege the statement needs.
    static let insufficientPrivilege = PostgresSQLState(known: "42501")
}
