import Foundation
import Testing

@testable import Persist

@Suite("ValueEncoder and ValueDecoder")
struct ValueCodingTests {
    enum Size: Int, Codable { case small = 1, large = 2 }
    struct Inner: Codable, Equatable { var values: [Double?]; var flag: Bool }
    struct Model: Codable, Equatable {
        var text: String
        var count: UInt32
        var size: Size
        var inner: Inner
        var optional: Int?
        var date: Date
        var data: Data
        var url: URL
        var map: [String: [Int]]
        var byIndex: [Int: String]
    }

    let model = Model(
        text: "x\u{0}y", count: 7, size: .large, inner: Inner(values: [1.5, nil, -0.0], flag: true), optional: nil,
        date: Date(timeIntervalSinceReferenceDate: 12.5), data: Data([0, 9]), url: URL(string: "https://example.com/a?b=c")!,
        map: ["a": [1, 2]], byIndex: [3: "three"])

    @Test("models round-trip and encode to the expected shape")
    func roundTrip() throws {
        let value = try ValueEncoder().encode(model)
        let object = try #require(value.objectValue)
        #expect(object["size"] == 2)
        #expect(object["optional"] == nil)
        #expect(object["date"] == .date(model.date))
        #expect(object["data"] == .bytes([0, 9]))
        #expect(object["url"] == "https://example.com/a?b=c")
        #expect(object["inner"] == ["values": [1.5, .null, .double(-0.0)], "flag": true])
        #expect(object["byIndex"] == ["3": "three"])
        #expect(try ValueDecoder().decode(Model.self, from: value) == model)
    }

    @Test("unsigned integers above Int64.max cannot be encoded")
    func tooLarge() {
        #expect(throws: EncodingError.self) { try ValueEncoder().encode([UInt64.max]) }
    }

    @Test("numbers convert only when exact; booleans read 0 and 1")
    func conversions() throws {
        let decoder = ValueDecoder()
        #expect(try decoder.decode(Int.self, from: .double(2)) == 2)
        #expect(throws: DecodingError.self) { try decoder.decode(Int.self, from: .double(2.5)) }
        #expect(throws: DecodingError.self) { try decoder.decode(UInt8.self, from: .int(300)) }
        #expect(try decoder.decode(Double.self, from: .int(3)) == 3)
        #expect(throws: DecodingError.self) { try decoder.decode(Double.self, from: .int(.max)) }
        #expect(try decoder.decode([Bool].self, from: [0, 1, true]) == [false, true, true])
        #expect(throws: DecodingError.self) { try decoder.decode(Bool.self, from: .int(2)) }
        #expect(throws: DecodingError.self) { try decoder.decode(String.self, from: .int(2)) }
    }

    @Test("a Float reads the nearest value of a double in its range; one beyond it is typeMismatch, not infinity")
    func floatRange() throws {
        let decoder = ValueDecoder()
        #expect(try decoder.decode(Float.self, from: 0.1) == Float(0.1))
        #expect(try decoder.decode(Float.self, from: .double(Double(Float.greatestFiniteMagnitude))) == .greatestFiniteMagnitude)
        #expect(try decoder.decode([Float].self, from: [.double(.infinity), .double(-.infinity)]) == [.infinity, -.infinity])
        #expect(try decoder.decode(Float.self, from: .double(.nan)).isNaN)
        for beyond in [1e39, -1e300, Double.greatestFiniteMagnitude] {
            #expect(throws: DecodingError.self) { try decoder.decode(Float.self, from: .double(beyond)) }
            #expect(throws: DecodingError.self) { try decoder.decode([Float].self, from: [.double(beyond)]) }
            #expect(throws: DecodingError.self) { try decoder.decode([String: Float].self, from: ["a": .double(beyond)]) }
        }
    }

    @Test("missing keys and nulls give DecodingErrors with paths")
    func errors() {
        do {
            _ = try ValueDecoder().decode(Inner.self, from: ["values": [1, "no"], "flag": true])
            Issue.record("expected a failure")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["values", "1"])
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(throws: DecodingError.self) { try ValueDecoder().decode(Inner.self, from: ["values": []]) }
    }
}
