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

    /// Whether two texts are the same UTF-8 bytes; texts that share storage are compared at once.
    package static func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
        var lhs = lhs, rhs = rhs
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                left.count == right.count && (left.baseAddress == right.baseAddress || left.elementsEqual(right))
            }
        }
    }
}
