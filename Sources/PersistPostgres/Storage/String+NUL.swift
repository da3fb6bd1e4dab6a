import Foundation

extension String {
    /// Whether the string holds a NUL character, which PostgreSQL's `text` cannot store. One
    /// `memchr` over the UTF-8 bytes: this runs for every string a write or a COPY sends.
    ///
    ///     "a\u{0}b".containsNUL   // true
    var containsNUL: Bool {
        utf8.withContiguousStorageIfAvailable { bytes in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, 0, bytes.count) != nil
        } ?? utf8.contains(0)
    }
}
