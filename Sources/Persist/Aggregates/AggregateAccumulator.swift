import Foundation

/// Folds attribute values into one aggregate, with the semantics of <doc:Aggregates>: every store
/// computes aggregates with this type or gives exactly its answers.
///
/// ```swift
/// var accumulator = AggregateAccumulator(.sum)
/// for value: Value in [1, 2.5, "text"] { accumulator.add(value) }
/// print(accumulator.result ?? .null)   // 3.5 (the string does not count)
/// ```
package struct AggregateAccumulator {
    package let function: AggregateFunction
    /// The minimum or maximum so far.
    private var extreme: Value?
    /// How many numbers were added.
    private var numbers = 0
    /// The exact sum of the integers (2⁶⁴ of them could not overflow it).
    private var integerSum: Int128 = 0
    /// Whether a double was added, which makes the sum a double.
    private var sawDouble = false
    private var exact = ExactSum()
    /// The sum of the decimals added, which makes the sum a decimal when no double was added.
    private var decimalSum: Decimal?

    package init(_ function: AggregateFunction) {
        self.function = function
    }

    /// Adds one item's value (`nil` when the item lacks the attribute; such items are skipped).
    package mutating func add(_ value: Value?) {
        guard let value else { return }
        switch function {
        case .minimum, .maximum:
            switch value {
            case .null, .array, .object:
                return
            default:
                guard let current = extreme else {
                    extreme = value
                    return
                }
                // Ties keep the value met first, that is, first in the request's order.
                let order = ValueSemantics.sortOrder(value, current)
                if function == .minimum ? order < 0 : order > 0 { extreme = value }
            }
        case .sum, .average:
            switch value {
            case .int(let int):
                numbers += 1
                exact.add(int)
                integerSum += Int128(int)
            case .double(let double):
                numbers += 1
                exact.add(double)
                sawDouble = true
            case .decimal(let decimal):
                numbers += 1
                decimalSum = (decimalSum ?? 0) + decimal
                if let double = Double(DecimalText.text(decimal)) { exact.add(double) }
            default:
                return
            }
        }
    }

    /// The aggregate of everything added.
    package var result: Value? {
        switch function {
        case .minimum, .maximum:
            return extreme
        case .sum:
            // Integers and decimals sum to a decimal (exact to Decimal's 38 digits); integers alone
            // that sum to an Int64 stay an integer, whatever overflowed on the way.
            if !sawDouble, let decimalSum, let integers = Decimal(string: String(integerSum), locale: nil) {
                return .decimal(decimalSum + integers)
            }
            if !sawDouble, let fits = Int64(exactly: integerSum) { return .int(fits) }
            return .double(exact.rounded)
        case .average:
            guard numbers > 0 else { return nil }
            return .double(exact.rounded / Double(numbers))
        }
    }
}
