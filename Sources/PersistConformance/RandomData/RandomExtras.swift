import Foundation
import Persist

/// Kinds of data ``RandomData`` includes only when asked, because some stores do not keep them
/// yet: the differential tests ask for those the store's ``StoreFactory/Capabilities`` list.
///
/// ```swift
/// var random = RandomData(seed: 7, extras: [.compositeIdentifiers, .decimals])
/// ```
public struct RandomExtras: OptionSet, Sendable, Hashable {
    /// The option bits.
    public let rawValue: Int
    /// Options from their bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Some identifiers are composite (`ItemID.composite`), mixed with the other kinds.
    public static let compositeIdentifiers = RandomExtras(rawValue: 1 << 0)
    /// Some values are exact decimals (`Value.decimal`), mixed with integers and doubles.
    public static let decimals = RandomExtras(rawValue: 1 << 1)

    /// The extras a store with `capabilities` keeps.
    ///
    /// ```swift
    /// let extras = RandomExtras(for: factory.capabilities)
    /// ```
    public init(for capabilities: StoreFactory.Capabilities) {
        self = []
        if capabilities.contains(.compositeIdentifiers) { insert(.compositeIdentifiers) }
        if capabilities.contains(.exactDecimals) { insert(.decimals) }
    }
}
