import Foundation
import Persist
@testable import PersistPostgres
import Testing

/// Decimals in the mixed encoding sort and compare as numbers, with integers and doubles.
@Suite("The mixed encoding orders decimals among the other numbers")
struct MixedDecimalOrderTests {
    static func decimal(_ text: String) -> Value {
        .decimal(DecimalText.parse(text) ?? .nan)
    }

    /// Numbers in ascending order, as the predicate semantics order them.
    static let ascending: [Value] = [
        decimal("NaN"), .double(-.infinity), decimal("-12345678901234567890123.5"), .double(-1e22),
        decimal("-1.0000000000000000000001"), .int(-1), decimal("-0.1000000000000000000001"), decimal("-0.1"),
        decimal("-0.09999999999999999999"), .int(0), decimal("0.0000001"), decimal("0.1"),
        decimal("0.10000000000000000001"), decimal("0.1000000000000000001"), decimal("0.5"), .int(1),
        decimal("1.00000000000000000001"), decimal("12345678901234567.89"), decimal("12345678901234567.9"),
        decimal("99999999999999999999999999999999999999"), .double(1e300), .double(.infinity),
    ]

    @Test("encodings sort in the semantics' order, equal numbers of different kinds compare equal")
    func order() throws {
        let encoded = Self.ascending.map(MixedValueCoding.comparable)
        for index in encoded.indices.dropFirst() {
            #expect(encoded[index - 1].lexicographicallyPrecedes(encoded[index]),
                    "\(Self.ascending[index - 1]) sorts before \(Self.ascending[index])")
        }
        #expect(MixedValueCoding.comparable(Self.decimal("5")) == MixedValueCoding.comparable(.int(5)))
        #expect(MixedValueCoding.comparable(Self.decimal("0.1")) == MixedValueCoding.comparable(.double(0.1)))
    }

    @Test("every decimal reads back exactly")
    func roundTrip() throws {
        for value in Self.ascending where value.kind == .decimal {
            let decoded = try MixedValueCoding.decode(ArraySlice(MixedValueCoding.encode(value)))
            if case .decimal(let decimal) = value, decimal.isNaN {
                #expect(decoded.decimalValue?.isNaN == true)
            } else {
                #expect(decoded == value)
            }
        }
    }
}
