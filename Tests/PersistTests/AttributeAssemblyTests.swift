import Testing
@testable import Persist

/// Row decoders build items' attributes over their table's column index; absent columns must not
/// appear, however many there are, and the present ones must keep their own names and values.
@Suite struct AttributeAssemblyTests {
    /// A column index of `count` columns named `c0`, `c1`, ….
    private func index(_ count: Int) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: (0..<count).map { ("c\($0)", $0) })
    }

    /// What a row with `present` columns set (each to its offset) should give.
    private func expected(_ present: [Int]) -> [String: Value] {
        Dictionary(uniqueKeysWithValues: present.map { ("c\($0)", Value.int(Int64($0))) })
    }

    @Test("every column present gives every attribute")
    func allPresent() {
        let attributes = AttributeAssembly.attributes(over: index(7)) { .int(Int64($0)) }
        #expect(attributes == expected(Array(0..<7)))
    }

    @Test("absent columns, up to and past the removal limit, are left out", arguments: [1, 2, 4, 5, 9, 11])
    func absentColumns(absent: Int) {
        let present = Array(absent..<12)
        let attributes = AttributeAssembly.attributes(over: index(12)) { offset in
            offset < absent ? nil : .int(Int64(offset))
        }
        #expect(attributes == expected(present))
        #expect(!attributes.values.contains { $0.isNull })
    }

    @Test("a .null value counts as absent")
    func nullIsAbsent() {
        let attributes = AttributeAssembly.attributes(over: index(3)) { $0 == 1 ? .null : .int(Int64($0)) }
        #expect(attributes == expected([0, 2]))
    }

    @Test("every column absent gives no attributes")
    func allAbsent() {
        #expect(AttributeAssembly.attributes(over: index(6)) { _ in nil }.isEmpty)
        #expect(AttributeAssembly.attributes(over: [:]) { _ in .int(1) }.isEmpty)
    }

    @Test("an error reading a column is thrown")
    func errorsPropagate() {
        #expect(throws: DataStoreError.self) {
            _ = try AttributeAssembly.attributes(over: index(3)) { offset -> Value? in
                if offset == 2 { throw DataStoreError(.corrupt, "column 2 is damaged") }
                return .int(Int64(offset))
            }
        }
    }
}
