import Foundation
import Persist

/// The record of the relations declared in a native GDBM file (see the "GDBM storage format"
/// article): under the key `00 "relations"`, a version byte and every declaration in the order
/// they were made.
enum GDBMRelationFormat {
    /// The version byte that starts the record.
    static let version: UInt8 = 1

    /// The key of the record.
    static let key: [UInt8] = [0x00] + Array("relations".utf8)

    /// The byte that spells each delete rule a file keeps. An engine's own action (`SET DEFAULT`)
    /// has none: GDBM cannot carry one out, so no file holds one.
    enum RuleByte: UInt8 {
        case deny = 1
        case cascade = 2
        case nullify = 3

        init?(_ rule: DataStoreRelation.DeleteRule) {
            switch rule {
            case .deny: self = .deny
            case .cascade: self = .cascade
            case .nullify: self = .nullify
            case .engineAction: return nil
            }
        }

        var rule: DataStoreRelation.DeleteRule {
            switch self {
            case .deny: .deny
            case .cascade: .cascade
            case .nullify: .nullify
            }
        }
    }

    /// The error for a relation whose rule is an engine's own action: GDBM cannot carry it out.
    static func engineActionRefused(_ relation: DataStoreRelation) -> DataStoreError {
        DataStoreError(.invalidArgument, "the relation \(relation.name) (\(relation)) asks for the delete action "
                           + "\(relation.onDelete), which a GDBM file cannot carry out; declare it .deny, .cascade or .nullify")
    }

    /// The record's value. Every relation's rule must have a ``RuleByte`` (the writer refuses the
    /// others before they get here); one without is left out.
    static func encode(_ relations: [DataStoreRelation]) -> [UInt8] {
        let kept = relations.compactMap { relation in RuleByte(relation.onDelete).map { (relation, $0) } }
        var bytes: [UInt8] = [version]
        BinaryValueCoding.appendVarint(UInt64(kept.count), to: &bytes)
        for (relation, rule) in kept {
            BinaryValueCoding.appendLengthPrefixed(relation.name, to: &bytes)
            BinaryValueCoding.appendLengthPrefixed(relation.itemType, to: &bytes)
            BinaryValueCoding.appendVarint(UInt64(relation.attributes.count), to: &bytes)
            for name in relation.attributes { BinaryValueCoding.appendLengthPrefixed(name, to: &bytes) }
            BinaryValueCoding.appendLengthPrefixed(relation.relatedType, to: &bytes)
            bytes.append(rule.rawValue)
        }
        return bytes
    }

    /// The relations a record's value declares.
    ///
    /// - Throws: `corrupt` for malformed bytes (an empty name, no or a repeated attribute, an
    ///   unknown rule byte, a name two relations of one type share), `unsupported` for a version
    ///   byte above 1 (written by a newer format).
    static func decode(_ bytes: [UInt8]) throws -> [DataStoreRelation] {
        try bytes.withUnsafeBytes { raw in
            var reader = ByteReader(raw)
            let found = try reader.readByte()
            if found == 0 { throw DataStoreError(.corrupt, "the relation record has version 0, which is never written") }
            if found > version {
                throw DataStoreError(.unsupported, "the relation record has format version \(found); this version of "
                                        + "Persist reads up to \(version); open the file with a newer Persist")
            }
            // A relation takes at least 8 bytes: four texts of one byte or more, a count and a rule.
            let count = try reader.readLength(minimumBytesEach: 8)
            var relations: [DataStoreRelation] = []
            for _ in 0..<count {
                let relation = try readRelation(&reader)
                if relations.contains(where: { $0.itemType.utf8.elementsEqual(relation.itemType.utf8)
                        && $0.name.utf8.elementsEqual(relation.name.utf8) }) {
                    throw DataStoreError(.corrupt, "the relation record names two relations \(relation.name) of \(relation.itemType)")
                }
                relations.append(relation)
            }
            try reader.expectEnd()
            return relations
        }
    }

    private static func readRelation(_ reader: inout ByteReader) throws -> DataStoreRelation {
        let name = try reader.readLengthPrefixedString()
        let itemType = try reader.readLengthPrefixedString()
        let attributeCount = try reader.readLength(minimumBytesEach: 2)
        var attributes: [String] = []
        for _ in 0..<attributeCount { attributes.append(try reader.readLengthPrefixedString()) }
        let relatedType = try reader.readLengthPrefixedString()
        let ruleByte = try reader.readByte()
        let names = [name, itemType, relatedType] + attributes
        guard !names.contains(where: { $0.isEmpty || $0.utf8.contains(0) }), !attributes.isEmpty,
              Set(attributes.map { Array($0.utf8) }).count == attributes.count
        else {
            throw DataStoreError(.corrupt, "the relation record holds a relation \(name.isEmpty ? "without a name" : name) "
                                    + "with an empty name or one containing NUL, no attributes, or an attribute twice")
        }
        guard let rule = RuleByte(rawValue: ruleByte) else {
            throw DataStoreError(.corrupt, "the relation \(name) of \(itemType) in the relation record has the delete rule "
                                    + "byte \(ruleByte), which version \(version) does not define")
        }
        return DataStoreRelation(itemType: itemType, attributes: attributes, relatedType: relatedType,
                                 onDelete: rule.rule, name: name)
    }
}
