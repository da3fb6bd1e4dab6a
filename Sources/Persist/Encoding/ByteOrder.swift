import Foundation

/// Lexicographic comparison of byte sequences, the order used for strings (by UTF-8 bytes) and bytes.
///
/// ```swift
/// let names = types.sorted(by: ByteOrder.precedes)   // "Z" before "a" before "é"
/// ```
package enum ByteOrder {
    /// Whether `a` sorts before `b` by UTF-8 bytes: the order of item types, attribute names and strings.
    package static func precedes(_ a: String, _ b: String) -> Bool {
        compare(a, b) < 0
    }

    /// Whether the bytes `a` sort before `b`.
    package static func precedes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        compare(a, b) < 0
    }

    /// Negative when `a` sorts first, zero when equal, positive when `b` sorts first.
    package static func compare(_ a: String, _ b: String) -> Int {
        var a = a
        var b = b
        return a.withUTF8 { left in b.withUTF8 { right in compare(left, right) } }
    }

    package static func compare(_ a: [UInt8], _ b: [UInt8]) -> Int {
        a.withUnsafeBufferPointer { left in b.withUnsafeBufferPointer { right in compare(left, right) } }
    }

    static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(a.count, b.count)
        if common > 0, let left = a.baseAddress, let right = b.baseAddress {
            let result = memcmp(left, right, common)
            if result != 0 { return Int(result) }
        }
        return a.count - b.count
    }

    /// Whether `needle` occurs in `haystack` as a contiguous run of bytes. The empty needle occurs everywhere.
    static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        if needle.isEmpty { return true }
        if needle.count > haystack.count { return false }
        guard let base = haystack.baseAddress, let first = needle.first, let needleBase = needle.baseAddress else {
            return false
        }
        var index = 0
        let last = haystack.count - needle.count
        while index <= last {
            if base[index] == first, memcmp(base + index, needleBase, needle.count) == 0 { return true }
            index += 1
        }
        return false
    }

    static func hasPrefix(_ value: UnsafeBufferPointer<UInt8>, _ prefix: UnsafeBufferPointer<UInt8>) -> Bool {
        guard prefix.count <= value.count else { return false }
        guard prefix.count > 0, let base = value.baseAddress, let prefixBase = prefix.baseAddress else { return true }
        return memcmp(base, prefixBase, prefix.count) == 0
    }

    static func hasSuffix(_ value: UnsafeBufferPointer<UInt8>, _ suffix: UnsafeBufferPointer<UInt8>) -> Bool {
        guard suffix.count <= value.count else { return false }
        guard suffix.count > 0, let base = value.baseAddress, let suffixBase = suffix.baseAddress else { return true }
        return memcmp(base + (value.count - suffix.count), suffixBase, suffix.count) == 0
    }
}
