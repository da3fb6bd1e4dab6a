import Foundation
import Synchronization

/// A TCP proxy on the loopback interface between a PostgreSQL client (a store) and the server,
/// which records what the client asks for: each statement it runs (an `Execute`, or a simple
/// `Query`) by its SQL text, and each point where it waits for the server (a `Sync`, a `Flush` or
/// a simple `Query`) — its round trips. Used to count a store's work, never to time it: every
/// byte takes two more hops through this process.
///
/// ```swift
/// let proxy = try PostgresCountingProxy(host: "127.0.0.1", port: 5432)
/// defer { proxy.stop() }
/// let store = PostgresDataStore(url: "postgresql://app@127.0.0.1:\(proxy.port)/shop")
/// let (_, traffic) = try proxy.recording { try store.read { … } }
/// ```
final class PostgresCountingProxy: Sendable {
    /// What a client asked for while recording.
    struct Traffic: Sendable {
        /// The SQL of each statement run, in order (`?` when its `Parse` was not seen).
        var statements: [String] = []
        /// The points where the client waited for the server.
        var roundTrips = 0
        /// Whether some traffic could not be read (TLS): the counts are then incomplete.
        var incomplete = false
    }

    /// The port the proxy listens on, at 127.0.0.1.
    let port: Int
    private let listener: Int32
    private let target: (host: String, port: Int)
    private let state = Mutex<(recording: Bool, traffic: Traffic)>((false, Traffic()))

    /// Listens on a free loopback port and forwards every connection to `host`:`port` (IPv4).
    init(host: String, port: Int) throws {
        target = (host, port)
        let listening = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listening >= 0 else { throw BenchmarkError("socket: \(String(cString: strerror(errno)))") }
        var address = Self.address("127.0.0.1", port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listening, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listening, $0, &length) }
        }
        guard bound == 0, named == 0, listen(listening, 16) == 0 else {
            let message = String(cString: strerror(errno))
            close(listening)
            throw BenchmarkError("cannot listen on the loopback interface: \(message)")
        }
        listener = listening
        self.port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptConnections() }
    }

    /// Stops accepting connections; those open end when their client closes them.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
    }

    /// Runs `body` and returns its result and what the proxied clients asked for meanwhile.
    func recording<T>(_ body: () throws -> T) throws -> (T, Traffic) {
        state.withLock { $0 = (true, Traffic()) }
        defer { state.withLock { $0.recording = false } }
        let result = try body()
        return (result, state.withLock { $0.traffic })
    }

    private static func address(_ host: String, port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        return address
    }

    private func acceptConnections() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                close(listener)
                return
            }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.address(target.host, port: target.port)
            let connected = server >= 0 && withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            } == 0
            guard connected else {
                close(client)
                if server >= 0 { close(server) }
                continue
            }
            for socket in [client, server] {
                var on: Int32 = 1
                setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            }
            let pair = SocketPair(client: client, server: server)
            Thread.detachNewThread { [self] in forward(pair, fromClient: true) }
            Thread.detachNewThread { [self] in forward(pair, fromClient: false) }
        }
    }

    /// Copies one direction of a connection until either side closes; reads the client's side.
    private func forward(_ pair: SocketPair, fromClient: Bool) {
        let (from, to) = fromClient ? (pair.client, pair.server) : (pair.server, pair.client)
        var reader = ClientReader()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        copying: while true {
            let count = buffer.withUnsafeMutableBytes { recv(from, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            let sent = buffer.withUnsafeBytes { bytes -> Bool in
                let chunk = UnsafeRawBufferPointer(rebasing: bytes[0..<count])
                // Read before forwarding, so a statement is counted before its answer can return.
                if fromClient { reader.read(chunk, into: state) }
                var offset = 0
                while offset < count {
                    let written = send(to, chunk.baseAddress?.advanced(by: offset), count - offset, Int32(MSG_NOSIGNAL))
                    if written < 0, errno == EINTR { continue }
                    guard written > 0 else { return false }
                    offset += written
                }
                return true
            }
            if !sent { break copying }
        }
        pair.finish()
    }
}

/// The two sockets of one proxied connection: shut down when either direction ends, closed when
/// both have.
private final class SocketPair: Sendable {
    let client: Int32
    let server: Int32
    private let running = Mutex(2)

    init(client: Int32, server: Int32) {
        self.client = client
        self.server = server
    }

    func finish() {
        shutdown(client, Int32(SHUT_RDWR))
        shutdown(server, Int32(SHUT_RDWR))
        let last = running.withLock { running in
            running -= 1
            return running == 0
        }
        if last {
            close(client)
            close(server)
        }
    }
}

/// Reads one client's messages: the SQL of its prepared statements and portals, by name, so that
/// each `Execute` is recorded with its SQL.
private struct ClientReader {
    private var parser = PostgresMessageParser()
    private var statements: [String: String] = [:]
    private var portals: [String: String] = [:]

    mutating func read(_ bytes: UnsafeRawBufferPointer,
                       into state: borrowing Mutex<(recording: Bool, traffic: PostgresCountingProxy.Traffic)>) {
        var executed: [String] = []
        var waits = 0
        // The parser is taken out while it reads, so that the messages it hands over can update the names.
        var parser = PostgresMessageParser()
        swap(&parser, &self.parser)
        defer { swap(&parser, &self.parser) }
        parser.feed(bytes) { type, body in
            switch type {
            case UInt8(ascii: "P"):
                let strings = PostgresMessageParser.strings(body, count: 2)
                if strings.count == 2 { statements[strings[0]] = strings[1] }
            case UInt8(ascii: "B"):
                let strings = PostgresMessageParser.strings(body, count: 2)
                if strings.count == 2 { portals[strings[0]] = statements[strings[1]] ?? "?" }
            case UInt8(ascii: "E"):
                let portal = PostgresMessageParser.strings(body, count: 1).first ?? ""
                executed.append(portals[portal] ?? "?")
            case UInt8(ascii: "Q"):
                executed.append(PostgresMessageParser.strings(body, count: 1).first ?? "?")
                waits += 1
            case UInt8(ascii: "S"), UInt8(ascii: "H"):
                waits += 1
            default:
                break
            }
        }
        let opaque = parser.isOpaque
        state.withLock { state in
            guard state.recording else { return }
            state.traffic.statements += executed
            state.traffic.roundTrips += waits
            if opaque { state.traffic.incomplete = true }
        }
    }
}
