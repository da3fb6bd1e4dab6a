import Foundation
import Persist
import PersistConformance
import Testing

@Suite("A store released while it is observed")
struct ReleasedStoreTests {
    @Test("releasing a store without tearDown ends its live queries with misuse, instead of leaving them waiting")
    func liveQueriesEnd() async throws {
        var store: InMemoryDataStore? = InMemoryDataStore()
        try store?.setup()
        let stream = try #require(store).observe(DataStoreRequest(itemType: "Note"))
        let recorder = ObservationRecorder(stream)
        try await recorder.waitFor { $0.count == 1 }
        store = nil
        try await recorder.waitForEnd(seconds: 10)
        let error = recorder.error as? DataStoreError
        #expect(error?.code == .misuse)
        #expect(error?.message.contains("released") == true)
    }
}
