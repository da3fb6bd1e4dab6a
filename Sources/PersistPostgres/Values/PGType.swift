/// The PostgreSQL type OIDs the wrapper encodes and decodes (from `pg_type.dat`; fixed in every
/// PostgreSQL release).
package enum PGType {
    package static let bool: UInt32 = 16
    package static let bytea: UInt32 = 17
    package static let name: UInt32 = 19
    package static let int8: UInt32 = 20
    package static let int2: UInt32 = 21
    package static let int4: UInt32 = 23
    package static let text: UInt32 = 25
    package static let oid: UInt32 = 26
    package static let float4: UInt32 = 700
    package static let float8: UInt32 = 701
    package static let unknown: UInt32 = 705
    package static let bpchar: UInt32 = 1042
    package static let varchar: UInt32 = 1043
    package static let timestamp: UInt32 = 1114
    package static let timestamptz: UInt32 = 1184
    package static let json: UInt32 = 114
    package static let date: UInt32 = 1082
    package static let numeric: UInt32 = 1700
    package static let uuid: UInt32 = 2950
    package static let jsonb: UInt32 = 3802
    package static let record: UInt32 = 2249
    package static let time: UInt32 = 1083
    package static let timetz: UInt32 = 1266
    package static let interval: UInt32 = 1186
    package static let inet: UInt32 = 869
    package static let cidr: UInt32 = 650
    package static let macaddr: UInt32 = 829
    package static let macaddr8: UInt32 = 774
    package static let int8Array: UInt32 = 1016
    package static let textArray: UInt32 = 1009
    package static let byteaArray: UInt32 = 1001

    /// Types whose binary form is UTF-8 text.
    static let textual: Set<UInt32> = [text, varchar, bpchar, name, unknown]
    /// Types whose binary form is a big-endian integer of 2, 4 or 8 bytes.
    static let integers: Set<UInt32> = [int2, int4, int8, oid]
}
