import Persist
@testable import PersistPostgres
import Testing

@Suite("SQLSTATEs map to DataStoreError codes as PostgresErrors documents")
struct ErrorMappingTests {
    static let url = try? PostgresURL("postgresql://app:Hidden-Pw-99@db.example.com:6000/shop")

    @Test("a SQLSTATE and its engineCode convert both ways")
    func sqlStateEncoding() throws {
        for code in ["00000", "23505", "40P01", "57014", "XX000", "ZZZZZ", "3D000", "HV00R"] {
            let state = try #require(PostgresSQLState(code))
            #expect(PostgresSQLState(engineCode: state.engineCode) == state)
            #expect(state.description == code)
        }
        // PostgreSQL's MAKE_SQLSTATE('2','3','5','0','5').
        #expect(PostgresSQLState.uniqueViolation.engineCode == 2 | 3 << 6 | 5 << 12 | 0 << 18 | 5 << 24)
        #expect(PostgresSQLState.uniqueViolation.errorClass == "23")
        for bad in ["2350", "235055", "2350a", "23 05", ""] { #expect(PostgresSQLState(bad) == nil) }
        for bad in [-1, 1 << 30, 0x3F] { #expect(PostgresSQLState(engineCode: bad) == nil) }
    }

    static let table: [(state: String, code: DataStoreError.Code, says: String)] = [
        ("08001", .io, "pg_ctl start"), ("08006", .io, "connection lost"), ("08003", .io, "connection lost"),
        ("57P01", .io, "connection lost"), ("57P02", .io, "connection lost"), ("57P03", .io, "starting up or shutting down"),
        ("28P01", .invalidArgument, "Authentication failed for user \"app\""),
        ("28000", .invalidArgument, "Authentication failed"),
        ("3D000", .notFound, "database \"shop\" does not exist"), ("42P01", .notFound, "Check the name"),
        ("3F000", .notFound, "Check the name"), ("42703", .notFound, "Check the name"),
        ("57014", .io, "statement timeout"), ("55P03", .locked, "lock_timeout"), ("40P01", .locked, "deadlock"),
        ("40001", .conflict, "concurrent transaction"), ("23505", .alreadyExists, "already stored"),
        ("23502", .invalidArgument, "constraint"), ("23503", .referenceViolation, "foreign key"),
        ("22003", .typeMismatch, "type"), ("22021", .typeMismatch, "type"), ("22P02", .typeMismatch, "type"),
        ("25006", .readOnly, "may not write"), ("42501", .readOnly, "may not write"),
        ("25P02", .misuse, "rolled back"), ("0A000", .unsupported, "not support"),
        ("XX001", .corrupt, "damaged"), ("XX002", .corrupt, "damaged"), ("53100", .io, "retry"),
        ("42601", .invalidArgument, "refused"), ("54000", .invalidArgument, "refused"), ("P0001", .invalidArgument, "trigger"),
        ("P0004", .invalidArgument, "trigger"), ("2F005", .invalidArgument, "trigger"), ("39P01", .invalidArgument, "trigger"),
        ("55000", .invalidArgument, "cannot succeed"), ("55006", .locked, "using the object"), ("72000", .io, "retry"),
    ]

    @Test("each SQLSTATE of the table gives its code, a sentence, the location and the engine's code and message")
    func mapping() throws {
        let url = try #require(Self.url)
        for (state, code, says) in Self.table {
            let sqlState = try #require(PostgresSQLState(state))
            let failure = ServerFailure(sqlState: sqlState, message: "the server's words", detail: "a detail")
            let error = PostgresErrors.error(failure, url: url, operation: "Running a statement")
            #expect(error.code == code, "\(state)")
            #expect(error.message.contains(says), "\(state): \(error.message)")
            #expect(error.message.contains("db.example.com:6000"), "\(state): \(error.message)")
            #expect(error.message.contains("the server's words"), "\(state): \(error.message)")
            #expect(error.path == "postgresql://app@db.example.com:6000/shop")
            #expect(error.message.contains(error.path ?? "-"), "the message names the location, so no (file: …) is added")
            #expect(error.engineCode == sqlState.engineCode)
            #expect(error.engineMessage == "\(state): the server's words")
            #expect(!String(describing: error).contains("Hidden-Pw-99"))
        }
    }

    @Test("a server starting up or shutting down is waited for, not started again")
    func serverStartingOrStopping() throws {
        let url = try #require(Self.url)
        let failure = ServerFailure(sqlState: try #require(PostgresSQLState("57P03")), message: "the database system is starting up")
        let error = PostgresErrors.error(failure, url: url, operation: "Connecting")
        #expect(error.message.contains("run again once it accepts connections"), "\(error.message)")
        #expect(!error.message.contains("pg_ctl start") && !error.message.contains("systemctl"), "\(error.message)")
    }

    @Test("a lost connection's message names the item type of the operation as it is spelled",
          arguments: ["08006", "57P01"])
    func lostConnectionKeepsNames(_ state: String) throws {
        let url = try #require(Self.url)
        let failure = ServerFailure(sqlState: try #require(PostgresSQLState(state)), message: "terminated")
        let error = PostgresErrors.error(failure, url: url, operation: "Inserting an item of type \"Note\" into \"Shop\"")
        #expect(error.message.contains("while inserting an item of type \"Note\" into \"Shop\""), "\(error.message)")
    }

    @Test("a verbose connection message gives its SQLSTATE; libpq's own text gets the fallback")
    func connectionMessages() {
        let refused = ServerFailure.parsingConnectionMessage(
            "connection to server at \"127.0.0.1\", port 1 failed: Connection refused\n"
                + "\tIs the server running on that host and accepting TCP/IP connections?\n",
            fallback: .unableToConnect)
        #expect(refused.sqlState == .unableToConnect)
        #expect(refused.message == "connection to server at \"127.0.0.1\", port 1 failed: Connection refused")
        let authentication = ServerFailure.parsingConnectionMessage(
            "connection to server at \"127.0.0.1\", port 5432 failed: FATAL:  28P01: password authentication failed "
                + "for user \"u\"\nLOCATION:  auth_failed, auth.c:323\n",
            fallback: .unableToConnect)
        #expect(authentication.sqlState == .invalidPassword)
        #expect(authentication.message == "password authentication failed for user \"u\"")
        #expect(ServerFailure.parsingConnectionMessage("", fallback: .connectionFailure).message == "no message from libpq")
    }
}
