import CLibPQ
import Foundation
import Persist
import PersistPostgres
import Testing

/// The store's TCP connections ask the system to probe a silent server, so a vanished host or
/// network fails a block within minutes instead of hanging it for the system's two hours.
@Suite("PostgreSQL connections probe a silent server with TCP keepalives")
struct KeepaliveTests {
    /// The integer value of socket option `option` at `level` on `socket`.
    static func option(_ socket: Int32, _ level: Int32, _ option: Int32) -> Int32? {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(socket, level, option, &value, &length) == 0 ? value : nil
    }

    @Test("the writer's socket starts probing after 60 s of silence, every 10 s, and gives up after 6 probes")
    func writerSocket() throws {
        try withPostgresStore { store, _ in
            let settings = try store.withRawHandle { connection -> [Int32?] in
                let socket = PQsocket(connection)
                return [Self.option(socket, SOL_SOCKET, SO_KEEPALIVE),
                        Self.option(socket, Int32(IPPROTO_TCP), TCP_KEEPIDLE),
                        Self.option(socket, Int32(IPPROTO_TCP), TCP_KEEPINTVL),
                        Self.option(socket, Int32(IPPROTO_TCP), TCP_KEEPCNT)]
            }
            #expect(settings == [1, 60, 10, 6], "SO_KEEPALIVE, TCP_KEEPIDLE, TCP_KEEPINTVL, TCP_KEEPCNT")
        }
    }
}
