import Foundation
import PersistTestSupport
import Testing

@Suite("LibpqAdoption example")
struct LibpqAdoptionTests {
    @Test("the same PostgreSQL table before, during and after adoption")
    func runs() throws {
        #expect(ProcessInfo.processInfo.environment["PERSIST_POSTGRES_URL"] != nil,
                "PERSIST_POSTGRES_URL is not set: run the tests with `scripts/postgres-cluster.sh run swift test`")
        let output = try ProductRunner.run("LibpqAdoption")
        #expect(output.status == 0, "stderr: \(output.stderr)")
        #expect(output.stdout.split(separator: "\n").map(String.init) == [
            "before: Toaster",
            "during: Teapot",
            "during, legacy code sees: Teapot",
            "after: Mug",
            "after: 4 products, 3 sold",
        ])
    }
}
