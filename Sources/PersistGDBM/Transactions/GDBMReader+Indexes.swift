import Foundation
import Persist

extension GDBMReader {
    /// The file's indexes of the type; `nil` in the raw layout, which has no place for them (the
    /// store's scheduler then keeps the declarations).
    func indexes(ofType itemType: String) throws -> [DataStoreIndex]? {
        guard case .native = codec else { return nil }
        return indexCatalog.definitions(ofType: itemType).map(\.index)
    }

    /// The identifiers an index entry lists for the request's equality filter, or `nil` when no
    /// index answers it. An index answers when the filter is a conjunction (`&&`) that compares
    /// every one of the index's attributes with `==` to a non-null value; the full filter is still
    /// applied to every item the entry lists.
    func indexedIdentifiers(_ request: DataStoreRequest) throws -> [[UInt8]]? {
        guard case .native = codec, let filter = request.filter else { return nil }
        let definitions = indexCatalog.definitions(ofType: request.itemType)
        guard !definitions.isEmpty else { return nil }
        var equalities: [String: Value] = [:]
        Self.collectEqualities(filter, into: &equalities)
        guard !equalities.isEmpty else { return nil }
        // Unique indexes list at most one item; among the rest, more attributes narrow more.
        let usable = definitions.filter { $0.index.attributes.allSatisfy { equalities[$0] != nil } }
        guard let best = usable.max(by: { ($0.index.isUnique ? 1 : 0, $0.index.attributes.count)
            < ($1.index.isUnique ? 1 : 0, $1.index.attributes.count) })
        else { return nil }
        let tuple = IndexKey.encode(best.index.attributes.compactMap { equalities[$0] })
        return try entryIdentifiers(best.number, tuple: tuple)
    }

    /// The attribute → value pairs compared with `==` at the top level of a conjunction.
    private static func collectEqualities(_ predicate: DataStorePredicate, into equalities: inout [String: Value]) {
        switch predicate {
        case .and(let lhs, let rhs):
            collectEqualities(lhs, into: &equalities)
            collectEqualities(rhs, into: &equalities)
        case .comparison(let name, .equal, let value) where !value.isNull:
            if equalities[name] == nil { equalities[name] = value }
        default:
            break
        }
    }

    /// The largest integer identifier of the type, from the keys alone (no record is read).
    func largestIntegerID(ofType itemType: String) throws -> Int64? {
        guard case .native = codec, let prefix = codec.prefix(for: itemType) else { return nil }
        var largest: Int64?
        try scan(prefix: prefix, withRecords: false) { key, _ in
            guard key.count == prefix.count + 9, key[prefix.count] == NativeKeyCodec.IDTag.int.rawValue else { return true }
            if case .int(let id) = try openFile.decoding(key: key, { try codec.decodeID(key, prefixLength: prefix.count) }),
               largest.map({ id > $0 }) ?? true {
                largest = id
            }
            return true
        }
        return largest
    }

    /// Above the largest identifier the type holds and the largest a committed block of this
    /// store wrote (see ``GDBMWriter/nextIntegerID(ofType:)``), which a child's new items then
    /// stay above too.
    func integerIDFloor(ofType itemType: String) throws -> Int64? {
        let candidates = [try largestIntegerID(ofType: itemType), openFile.largestWrittenIntegerID(ofType: itemType)]
        return candidates.compactMap { $0 }.max()
    }

    /// The tuple key of a record for an index's attributes, or `nil` when it lacks one of them.
    func tuple(of record: UnsafeRawBufferPointer, for index: DataStoreIndex) throws -> [UInt8]? {
        try codec.validate(record)
        var values: [Value] = []
        for name in index.attributes {
            guard let value = try codec.lookup(name, in: record), !value.isNull else { return nil }
            values.append(value)
        }
        return IndexKey.encode(values)
    }
}
