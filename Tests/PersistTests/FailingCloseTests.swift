import Foundation
import PersistConformance
import Testing

@testable import Persist

@Suite("A store whose engine fails to close")
struct FailingCloseTests {
    @Test("tearDown throws the close's error, ends the live queries with it, and leaves the store closed")
    func liveQueriesEnd() async throws {
        let store = FaultyStore(.failClose)
        try store.setup()
        let recorder = ObservationRecorder(store.observe(DataStoreRequest(itemType: "Note")))
        try await recorder.waitFor { $0.count == 1 }
        let error = expectError(.io) { try store.tearDown() }
        #expect(error?.message.contains("closing") == true)
        try await recorder.waitForEnd(seconds: 10)
        #expect((recorder.error as? DataStoreError)?.message == error?.message)
        expectError(.misuse) { try store.read { _ in 1 } }
    }
}
