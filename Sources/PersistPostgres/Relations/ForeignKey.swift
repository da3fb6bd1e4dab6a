import Persist

/// A foreign key of a table in the store's schema, as `pg_constraint` lists it (`contype = 'f'`).
struct ForeignKey: Sendable {
    /// The constraint's name (`conname`).
    let name: String
    /// The referring table's and the referred table's SQL names.
    let table: String
    let referredTable: String
    /// The referring columns and the referred columns they match, pair by pair (`conkey`, `confkey`).
    var columns: [String]
    var referredColumns: [String]
    /// `confdeltype`: `a` no action, `r` restrict, `c` cascade, `n` set null, `d` set default.
    let deleteAction: String
    let isDeferrable: Bool

    /// The delete rule the action stands for.
    var deleteRule: DataStoreRelation.DeleteRule {
        switch deleteAction {
        case "c": .cascade
        case "n": .nullify
        case "d": .engineAction("SET DEFAULT")
        default: .deny
        }
    }

    /// One row per pair of columns, in key order, of every foreign key of the schema named `$1`.
    static let query = """
        SELECT k.oid::int8, k.conname::text, c.relname::text, fc.relname::text, k.confdeltype::text, k.condeferrable, \
        a.attname::text, fa.attname::text \
        FROM pg_catalog.pg_constraint k JOIN pg_catalog.pg_class c ON c.oid = k.conrelid \
        JOIN pg_catalog.pg_class fc ON fc.oid = k.confrelid \
        CROSS JOIN LATERAL unnest(k.conkey, k.confkey) WITH ORDINALITY AS u(attnum, fattnum, n) \
        JOIN pg_catalog.pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.attnum \
        JOIN pg_catalog.pg_attribute fa ON fa.attrelid = k.confrelid AND fa.attnum = u.fattnum \
        WHERE k.contype = 'f' AND k.connamespace = (SELECT n.oid FROM pg_catalog.pg_namespace n WHERE n.nspname = $1) \
        AND fc.relnamespace = k.connamespace \
        ORDER BY c.relname, k.conname, k.oid, u.n
        """

    /// The foreign keys in the rows of ``query``, in its order.
    static func rows(_ result: PGResult) throws -> [ForeignKey] {
        var keys: [ForeignKey] = []
        var lastOID: Int64?
        for row in 0..<result.rowCount {
            let oid = try result.int64(row, 0) ?? 0
            let column = try result.text(row, 6) ?? ""
            let referred = try result.text(row, 7) ?? ""
            if oid == lastOID, !keys.isEmpty {
                keys[keys.count - 1].columns.append(column)
                keys[keys.count - 1].referredColumns.append(referred)
                continue
            }
            lastOID = oid
            keys.append(ForeignKey(name: try result.text(row, 1) ?? "", table: try result.text(row, 2) ?? "",
                                   referredTable: try result.text(row, 3) ?? "", columns: [column],
                                   referredColumns: [referred], deleteAction: try result.text(row, 4) ?? "a",
                                   isDeferrable: try result.bool(row, 5) ?? false))
        }
        return keys
    }
}
