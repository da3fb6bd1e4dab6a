import Testing

/// Two spellings of one name: `"café"` with `é` as one scalar, and as `e` with a combining accent.
/// The decomposed one precedes in byte order (`e`, 0x65, before 0xC3).
public enum TwoSpellings {
    public static let composed = "caf\u{E9}"
    public static let decomposed = "cafe\u{301}"

    /// Checks that of two tables named ``composed`` and ``decomposed``, a store's item types hold
    /// the decomposed one only, and its skipped tables the composed one, whose reason `detail`
    /// (of its ambiguous-name reason, `nil` for another reason) names both spellings' scalars.
    public static func expectDecomposedKept(itemTypes: [String], skipped: [(name: String, detail: String?)]) {
        #expect(itemTypes.count == 1 && itemTypes.first?.utf8.elementsEqual(decomposed.utf8) == true)
        #expect(skipped.count == 1 && skipped.first?.name.utf8.elementsEqual(composed.utf8) == true)
        guard let detail = skipped.first?.detail else {
            Issue.record("the composed table is not reported as an ambiguous name: \(skipped)")
            return
        }
        #expect(detail.contains("U+00E9") && detail.contains("U+0301"))
    }
}
