import Foundation
import Persist
import PersistConformance
import PersistPostgres
import Testing

@Suite("LISTEN and NOTIFY between two connections")
struct NotificationTests {
    @Test("a notification sent by another connection arrives with its channel, payload and sender")
    func delivered() throws {
        let listener = try TestServer.connect()
        defer { listener.close() }
        let sender = try TestServer.connect()
        defer { sender.close() }
        let channel = "persist changes \(UUID().uuidString)"
        try listener.listen(channel)
        #expect(try listener.pollNotifications().isEmpty)
        #expect(listener.socketDescriptor != nil)

        try sender.notify(channel, payload: "item 1")
        try sender.notify(channel, payload: "")
        let senderPID = try #require(try sender.execute("SELECT pg_backend_pid()").int64(0, 0))
        var received: [PGNotification] = []
        let deadline = Date().addingTimeInterval(10)
        while received.count < 2 && Date() < deadline {
            received += try listener.waitForNotifications(timeout: .seconds(5))
        }
        #expect(received == [PGNotification(channel: channel, payload: "item 1", processID: Int32(senderPID)),
                             PGNotification(channel: channel, payload: "", processID: Int32(senderPID))])

        try listener.unlisten(channel)
        try sender.notify(channel, payload: "after unlisten")
        #expect(try listener.waitForNotifications(timeout: .milliseconds(200)).isEmpty)
    }

    @Test("waiting with nothing to receive returns empty after the timeout")
    func timeout() throws {
        let listener = try TestServer.connect()
        defer { listener.close() }
        try listener.listen("quiet_\(UUID().uuidString)")
        let start = ContinuousClock.now
        #expect(try listener.waitForNotifications(timeout: .milliseconds(150)).isEmpty)
        let waited = ContinuousClock.now - start
        #expect(waited >= .milliseconds(140) && waited < .seconds(5))
    }

    @Test("a listener whose session is terminated gets connection lost, not a hang")
    func lostWhileWaiting() throws {
        let listener = try TestServer.connect()
        defer { listener.close() }
        try listener.listen("lost")
        let pid = try #require(try listener.execute("SELECT pg_backend_pid()").int64(0, 0))
        try TestServer.terminate(pid)
        let error = expectError(.io) { try listener.waitForNotifications(timeout: .seconds(10)) }
        #expect(error?.message.contains("connection lost") == true, "\(error as Any)")
        #expect(listener.isBroken)
    }
}
