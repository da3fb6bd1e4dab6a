import Foundation

/// How a merge frees the unique values held by items that pass them round in a cycle (see
/// ``MergeSaveOrder``): each is saved first without its unique attributes, then whole.
///
/// A table whose column cannot be empty (an adopted `NOT NULL` column) refuses that first save,
/// though the parent itself takes the same changes made through a temporary value, as the child
/// made them. The item then holds a temporary value no item holds instead, of the kind its value
/// has: a string or bytes with a random suffix, a number or date above the attribute's largest.
enum MergeRelease {
    /// Saves `released` (the child's item without its unique attributes `unique`), or, where the
    /// parent refuses to leave one empty, with temporary values in them.
    static func save(_ released: Item, unique: Set<String>, in accessor: DataStoreReadWriteAccessor) throws {
        do {
            try accessor.save(released)
        } catch let error as DataStoreError where error.code != .uniqueViolation {
            guard let current = try accessor.item(ofType: released.itemType, id: released.id) else { throw error }
            var placeholder = released
            for name in unique {
                guard let held = current[name] else { continue }
                guard let temporary = try temporary(for: held, of: name, ofType: released.itemType, in: accessor) else { throw error }
                placeholder[name] = temporary
            }
            try accessor.save(placeholder)
        }
    }

    /// A value of `held`'s kind that no item of the type holds in `name`, or `nil` for a kind
    /// without one (booleans, arrays, objects).
    private static func temporary(for held: Value, of name: String, ofType itemType: String,
                                  in accessor: DataStoreReadWriteAccessor) throws -> Value? {
        switch held {
        case .string(let text):
            return .string(text + " " + suffix())
        case .bytes(let bytes):
            return .bytes(bytes + Array(suffix().utf8))
        case .int, .double:
            var numbers = DataStoreRequest(itemType: itemType)
            numbers.filter = .attribute(name) >= .double(-.infinity)
            switch try accessor.maximum(of: name, forRequest: numbers) {
            case .int(let largest) where largest < .max:
                return held.kind == .int ? .int(largest + 1) : .double(Double(largest) + 1)
            case .double(let largest) where largest.isFinite && largest + 1 > largest:
                if held.kind == .double { return .double(largest + 1) }
                return Int64(exactly: largest.rounded(.up) + 1).map(Value.int)
            default:
                return nil
            }
        case .date:
            var dates = DataStoreRequest(itemType: itemType)
            dates.filter = .attribute(name) >= .date(.distantPast)
            guard case .date(let latest) = try accessor.maximum(of: name, forRequest: dates) else { return nil }
            return .date(latest.addingTimeInterval(1))
        default:
            return nil
        }
    }

    /// Sixteen random hexadecimal digits.
    private static func suffix() -> String {
        String(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16)).lowercased()
    }
}
