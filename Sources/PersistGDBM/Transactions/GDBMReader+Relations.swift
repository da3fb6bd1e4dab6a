import Foundation
import Persist

extension GDBMReader {
    /// Every relation the file declares, in declaration order, from the store's cache of the
    /// relation record (no read of the file); `nil` in the raw layout, which has no place for
    /// them (the store's scheduler then keeps the declarations for the life of the store object).
    func relations() throws -> [DataStoreRelation]? {
        guard case .native = codec else { return nil }
        return declaredRelations
    }
}

extension GDBMWriter {
    /// Declares `relation` in the native layout: the block's relation record gets it, and is
    /// journaled and committed with the block (a block that rolls back, or a commit that never
    /// finished its journal, leaves no declaration). `false` when the file already declares one
    /// with the same rules; `nil` in the raw layout. Type, attribute and relation names compare by
    /// their bytes, as GDBM keys compare them.
    ///
    /// - Throws: `invalidArgument` for an engine's own delete action (which GDBM cannot carry
    ///   out), or a name another relation of the type has with other rules.
    func ensureRelation(_ relation: DataStoreRelation) throws -> Bool? {
        guard case .native = codec else { return nil }
        try openFile.checkWritable()
        guard GDBMRelationFormat.RuleByte(relation.onDelete) != nil else {
            throw GDBMRelationFormat.engineActionRefused(relation).located(openFile.path)
        }
        var current = declaredRelations
        let ofType = current.filter { Self.sameBytes($0.itemType, relation.itemType) }
        if ofType.contains(where: { Self.sameRules($0, relation) }) { return false }
        if let named = ofType.first(where: { Self.sameBytes($0.name, relation.name) }) {
            throw DataStoreError(.invalidArgument, "\(relation.itemType) already has a relation named \(relation.name) with "
                                    + "other rules (\(named)); give the new relation (\(relation)) another name")
                .located(openFile.path)
        }
        current.append(relation)
        blockRelations = current
        return true
    }

    /// The same types, attributes and rule, names compared by their bytes.
    private static func sameRules(_ lhs: DataStoreRelation, _ rhs: DataStoreRelation) -> Bool {
        sameBytes(lhs.itemType, rhs.itemType) && sameBytes(lhs.relatedType, rhs.relatedType) && lhs.onDelete == rhs.onDelete
            && lhs.attributes.count == rhs.attributes.count && zip(lhs.attributes, rhs.attributes).allSatisfy(sameBytes)
    }

    private static func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.elementsEqual(rhs.utf8)
    }
}

extension GDBMReader {
    /// The key columns of the table the schema record keeps for `itemType` (a table a migration
    /// carried from an SQL store), one per identifier component, which a carried relation may name;
    /// `nil` for a type without one.
    func keyAttributes(ofType itemType: String) throws -> [String]? {
        guard case .native = codec,
              let table = try tableDescriptions().first(where: { $0.itemType.utf8.elementsEqual(itemType.utf8) }) else {
            return nil
        }
        if !table.primaryKey.isEmpty { return table.primaryKey }
        return table.key.map { [$0.name] }
    }
}
