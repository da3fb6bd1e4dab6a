import Foundation
import Persist
import PersistSQL

/// What PostgreSQL said about a foreign key violation (SQLSTATE `23503`), read against the
/// store's relations: which relation, the item referred to (from the key values of the detail,
/// `Key (album_id)=(999) is not present in table "album".` or `Key (id)=(5) is still referenced
/// from table "track".`), and whether the referring row was written or the referred one deleted.
struct ReferenceFailure {
    let stored: StoredRelation
    /// The item referred to, when the detail's values name one.
    let referred: ItemReference?
    /// Whether the referred row was deleted (or its key changed) while referred to; otherwise a
    /// referring row refers to a missing one.
    let isStillReferenced: Bool

    init?(_ failure: ServerFailure, schema: StoreSchema) {
        guard failure.sqlState == .foreignKeyViolation, let constraint = failure.constraint,
              let stored = schema.relations.first(where: { stored in
                  stored.foreignKey.map { $0.name == constraint && (failure.table == nil || $0.table == failure.table) }
                      ?? false
              }), let key = stored.foreignKey else { return nil }
        self.stored = stored
        let detail = failure.detail ?? ""
        isStillReferenced = detail.contains(" is still referenced from table ")
        guard let (names, values) = Self.keyValues(detail), names.count == values.count else {
            referred = nil
            return
        }
        // The detail lists the referring columns for a missing row, the referred ones otherwise.
        let order = isStillReferenced ? key.referredColumns : key.columns
        let related = schema.tables[stored.relation.relatedType]
        var components: [ItemID] = []
        for (name, keyColumn) in zip(order, related?.rowKey.columns ?? []) {
            guard let index = names.firstIndex(of: name), let component = Self.component(values[index], keyColumn.type)
            else { break }
            components.append(component)
        }
        guard !components.isEmpty, components.count == order.count else {
            referred = nil
            return
        }
        referred = ItemReference(itemType: stored.relation.relatedType,
                                 id: components.count == 1 ? components[0] : .composite(components))
    }

    /// The column names and values of `Key (a, b)=(1, x) …`; `nil` when the detail has no such part.
    static func keyValues(_ detail: String) -> ([String], [String])? {
        guard let start = detail.range(of: "Key ("), let middle = detail.range(of: ")=(", range: start.upperBound..<detail.endIndex),
              let end = detail.range(of: ") is ", options: .backwards, range: middle.upperBound..<detail.endIndex)
        else { return nil }
        let names = detail[start.upperBound..<middle.lowerBound].components(separatedBy: ", ")
        let values = detail[middle.upperBound..<end.lowerBound].components(separatedBy: ", ")
        return (names.map { $0.hasPrefix("\"") && $0.hasSuffix("\"") && $0.count > 1 ? String($0.dropFirst().dropLast()) : $0 },
                values)
    }

    /// The identifier component PostgreSQL printed as `text` for a key column of `type`.
    static func component(_ text: String, _ type: ColumnType) -> ItemID? {
        switch type {
        case .smallint, .integer, .bigint:
            return Int64(text).map(ItemID.int)
        case .text, .character, .uuid:
            return .string(text)
        case .bytea, .mixed:
            guard text.hasPrefix("\\x"), text.utf8.count % 2 == 0 else { return nil }
            var bytes: [UInt8] = []
            var digits = text.utf8.dropFirst(2).makeIterator()
            while let high = digits.next(), let low = digits.next() {
                guard let h = hexValue(high), let l = hexValue(low) else { return nil }
                bytes.append(h << 4 | l)
            }
            if type == .bytea { return .bytes(bytes) }
            return (try? MixedValueCoding.decodeID(bytes[...])) ?? nil
        default:
            return nil
        }
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The error for the violation, as `error` (the server's, already `referenceViolation`)
    /// reported it: naming the referring item `referrer` and the referred one where known.
    func error(_ error: DataStoreError, referrer: ItemReference?, said: String, atCommit: Bool) -> DataStoreError {
        let relation = stored.relation
        let referring = referrer.map(\.description) ?? "an item of \(relation.itemType)"
        let target = referred.map(\.description) ?? "an item of \(relation.relatedType)"
        let location = error.path ?? "the server"
        let when = atCommit ? " when the block committed" : ""
        let sentence = isStillReferenced
            ? "\(target) cannot be deleted: \(referring) still refers to it"
            : "\(referring) refers to \(target), which is not stored"
        let advice = isStillReferenced
            ? "delete the referring items or clear their \(relation.attributes.joined(separator: ", ")) first"
            : "store \(target) first or clear the reference"
        return DataStoreError(
            .referenceViolation,
            "\(sentence) (relation \(relation.name): \(relation)); the foreign key \(SQLName.quoted(relation.name)) of "
                + "PostgreSQL at \(location) refused it\(when) (\(said)); \(atCommit ? "nothing of the block was stored" : "nothing was written"). "
                + advice.prefix(1).uppercased() + advice.dropFirst(),
            path: error.path, engineCode: error.engineCode, engineMessage: error.engineMessage,
            items: [referrer, referred].compactMap { $0 })
    }
}
