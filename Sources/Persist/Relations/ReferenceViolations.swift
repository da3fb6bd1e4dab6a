/// The errors of broken references, each naming the referring and the referred item.
enum ReferenceViolations {
    /// `referrer` refers through `relation` to `id`, which is not stored.
    static func missing(_ referrer: ItemReference, _ relation: DataStoreRelation, _ id: ItemID) -> DataStoreError {
        let referred = ItemReference(itemType: relation.relatedType, id: id)
        return DataStoreError(
            .referenceViolation,
            "\(referrer) refers to \(referred), which is not stored (relation \(relation.name): \(relation)); "
                + "store \(referred) first or clear \(attributes(relation)) of \(referrer)",
            items: [referrer, referred])
    }

    /// `referrer` holds `value` in a referring attribute, which no identifier can be.
    static func notAnIdentifier(_ referrer: ItemReference, _ relation: DataStoreRelation, _ name: String,
                                _ value: Value) -> DataStoreError {
        DataStoreError(
            .referenceViolation,
            "\(referrer) holds \(value) in \(name), which no identifier of \(relation.relatedType) can be "
                + "(relation \(relation.name): \(relation)); an identifier is a string, an integer or bytes",
            items: [referrer])
    }

    /// `referred` was deleted while `referrer` still refers to it through a `.deny` relation.
    static func stillReferred(_ referred: ItemReference, by referrer: ItemReference,
                              _ relation: DataStoreRelation) -> DataStoreError {
        DataStoreError(
            .referenceViolation,
            "\(referred) cannot be deleted: \(referrer) still refers to it (relation \(relation.name): \(relation)); "
                + "delete \(referrer) or clear its \(attributes(relation)) in the same block, or declare the relation "
                + ".cascade or .nullify",
            items: [referrer, referred])
    }

    private static func attributes(_ relation: DataStoreRelation) -> String {
        relation.attributes.count == 1 ? relation.attributes[0] : "(\(relation.attributes.joined(separator: ", ")))"
    }
}
