import Foundation
@testable import Persist
import Testing

@Suite("Decimal text is exact both ways, and composite identifiers check their components")
struct DecimalTextTests {
    @Test("parse reads exact numbers and refuses text Decimal would read loosely or round")
    func strictParse() throws {
        #expect(DecimalText.parse("12345678901234567.89").map(DecimalText.text) == "12345678901234567.89")
        #expect(DecimalText.parse("1.50") == DecimalText.parse("1.5"))
        #expect(DecimalText.parse("-0.001").map(DecimalText.text) == "-0.001")
        #expect(DecimalText.parse("15e-1") == DecimalText.parse("1.5"))
        #expect(DecimalText.parse("NaN")?.isNaN == true)
        for bad in ["12abc", "", ".", "-", "1e", "1.2.3", "abc", "1e400",
                    "123456789012345678901234567890123456789012"] {
            #expect(DecimalText.parse(bad) == nil, "\(bad)")
        }
    }

    @Test("a decimal in the binary value encoding that is not in its canonical text is corrupt")
    func nonCanonicalRecord() throws {
        var bytes: [UInt8] = [0x0A]
        BinaryValueCoding.appendLengthPrefixed("1.50", to: &bytes)
        #expect(throws: DataStoreError.self) { try BinaryValueCoding.decode(bytes) }
        let canonical = BinaryValueCoding.encode(.decimal(Decimal(string: "1.5", locale: nil) ?? 0))
        #expect(try BinaryValueCoding.decode(canonical) == .decimal(Decimal(string: "1.50", locale: nil) ?? 0))
    }

    @Test("a composite identifier needs two or more components, none composite")
    func compositeComponents() throws {
        #expect(try ItemID(components: [1, "a"]) == .composite([.int(1), .string("a")]))
        for components: [ItemID] in [[], [1], [1, .composite([2, 3])]] {
            let error = #expect(throws: DataStoreError.self) { try ItemID(components: components) }
            #expect(error?.code == .invalidArgument)
        }
        #expect(ItemID(identifierValue: [1, "a"]) == .composite([.int(1), .string("a")]))
        #expect(ItemID(identifierValue: [1]) == nil)
        #expect(ItemID(identifierValue: [1, 2.5]) == nil)
    }
}
