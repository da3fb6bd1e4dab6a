import Foundation
import Persist

/// Names chosen to break careless quoting: SQL injections, quotes, keywords, spaces, non-ASCII,
/// and the names engines keep for hidden columns (PostgreSQL's system columns, SQLite's rowid).
///
/// ```swift
/// let item = Item(itemType: HostileNames.typeNames[0], id: 1, attributes: [HostileNames.attributeNames[0]: 1])
/// ```
public enum HostileNames {
    /// Item type names.
    public static let typeNames = [
        "Robert'); DROP TABLE x;--", "\"", "'", "select", "Table With Spaces", "名前", "a.b", "[x]", "`tick`",
        String(repeating: "long", count: 50),
    ]
    /// Attribute names.
    public static let attributeNames = [
        "Robert'); DROP TABLE x;--", "\"quoted\"", "order", "with space", "ünïcödé", "a.b", "[x]", "`tick`",
        String(repeating: "L", count: 200), "xmin", "ctid", "tableoid", "oid", "rowid", "_rowid_",
    ]
}
