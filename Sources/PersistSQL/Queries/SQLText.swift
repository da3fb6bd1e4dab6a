/// SQL text compared byte for byte, as SQL engines read it: the key of the SQLite and PostgreSQL
/// wrappers' prepared-statement caches.
///
/// Swift's `String` equality takes canonically equivalent texts for one, but `"é"` and
/// `"e\u{301}"` name two different columns to SQLite and PostgreSQL, so a cache keyed by `String`
/// could hand out a statement prepared for the other spelling (one from a block that created the
/// table and was rolled back, say).
///
/// ```swift
/// assert(SQLText("SELECT \"\u{E9}\" FROM t") != SQLText("SELECT \"e\u{301}\" FROM t"))
/// ```
package struct SQLText: Hashable, Sendable {
    package let sql: String

    package init(_ sql: String) {
        self.sql = sql
    }

    package static func == (lhs: SQLText, rhs: SQLText) -> Bool {
        sameBytes(lhs.sql, rhs.sql)
    }

    package func hash(into hasher: inout Hasher) {
        var text = sql
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Whether two texts are the same UTF-8 bytes. Texts that share storage (a cache's own SQL,
    /// SQL built once per schema) are recognized at once by the standard library's
    /// `_isIdentical(to:)`; texts Swift finds different differ in bytes too; only texts Swift
    /// finds equal are compared byte by byte.
    package static func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
        if lhs._isIdentical(to: rhs) { return true }
        guard lhs == rhs else { return false }
        let compared = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in left.elementsEqual(right) }
        }
        if let compared, let result = compared { return result }
        return lhs.utf8.elementsEqual(rhs.utf8)
    }
}
