import ArgumentParser
import Persist

/// `--raw-value bytes|utf8|json`: how the value of a raw GDBM pair becomes attributes, and how
/// attributes become the value of a pair written to a raw target.
///
/// - `bytes` (the default): the value's exact bytes in the layout's attribute (`value`).
/// - `utf8`: the value as a string in that attribute; a value that is not valid UTF-8 stops the
///   run (exit 65) naming its key.
/// - `json`: a JSON object's members become the item's attributes (a `null` member is no
///   attribute); any other JSON value is the layout's attribute. Written back as canonical JSON
///   (`JSONValueCoding.strict`): an item whose only attribute is the layout's attribute is written
///   as that attribute's value, every other item as an object of its attributes.
enum RawValueMode: String, CaseIterable, ExpressibleByArgument, Sendable {
    case bytes, utf8, json

    /// The item with the raw pair's value decoded into attributes.
    func decode(_ item: Item, attribute: String) throws -> Item {
        guard self != .bytes, case .bytes(let bytes)? = item[attribute] else { return item }
        switch self {
        case .bytes:
            return item
        case .utf8:
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw DataStoreError(.corrupt, "the value of \(item.reference) is not valid UTF-8 (--raw-value utf8)",
                                     items: [item.reference])
            }
            return item.replacingAttributes([attribute: .string(text)])
        case .json:
            let value: Value
            do {
                value = try JSONValueCoding.strict.decode(bytes)
            } catch {
                throw DataStoreError(.corrupt, "the value of \(item.reference) is \(error) (--raw-value json)",
                                     items: [item.reference])
            }
            if case .object(let members) = value { return item.replacingAttributes(members) }
            return item.replacingAttributes([attribute: value])
        }
    }

    /// The item with its attributes encoded into the raw pair's value.
    func encode(_ item: Item, attribute: String) throws -> Item {
        switch self {
        case .bytes:
            return item
        case .utf8:
            guard item.attributes.count == 1, case .string(let text)? = item[attribute] else {
                throw DataStoreError(.typeMismatch, "\(item.reference) cannot be written as a UTF-8 raw value: it needs "
                                        + "exactly one attribute, \(String(reflecting: attribute)), holding a string",
                                     items: [item.reference])
            }
            return item.replacingAttributes([attribute: .bytes(Array(text.utf8))])
        case .json:
            let value: Value
            if item.attributes.count == 1, let only = item[attribute] {
                value = only
            } else {
                value = .object(item.attributes)
            }
            do {
                return item.replacingAttributes([attribute: .bytes(try JSONValueCoding.strict.encode(value))])
            } catch {
                throw DataStoreError(.typeMismatch, "\(item.reference) cannot be written as a JSON raw value: \(error)",
                                     items: [item.reference])
            }
        }
    }
}
