/// Names that Swift finds equal although their bytes differ: two Unicode spellings of one name,
/// such as `"é"` as one scalar and as `e` with a combining accent. A store that finds two tables,
/// or two columns of one table, spelled so cannot tell them apart by name (see the contract's
/// rule on names), and skips what it cannot tell apart instead of mixing them up.
package enum NameSpellings {
    /// The first name of `names` that is another spelling of an earlier one, with that earlier
    /// one; `nil` when no two are.
    ///
    /// ```swift
    /// NameSpellings.clash(in: ["caf\u{E9}", "id", "cafe\u{301}"])   // ("caf\u{E9}", "cafe\u{301}")
    /// ```
    package static func clash(in names: [String]) -> (earlier: String, later: String)? {
        var seen: [String: String] = [:]
        for name in names {
            if let earlier = seen[name] {
                if !earlier.utf8.elementsEqual(name.utf8) { return (earlier, name) }
            } else {
                seen[name] = name
            }
        }
        return nil
    }

    /// A rendering of `name` that tells it from its other spellings: quoted, with its Unicode
    /// scalars when it has any beyond ASCII.
    ///
    /// ```swift
    /// NameSpellings.describe("cafe\u{301}")   // "café" (U+0063 U+0061 U+0066 U+0065 U+0301)
    /// ```
    package static func describe(_ name: String) -> String {
        let quoted = String(reflecting: name)
        guard name.unicodeScalars.contains(where: { !$0.isASCII }) else { return quoted }
        let scalars = name.unicodeScalars.map { scalar in
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
        return "\(quoted) (\(scalars.joined(separator: " ")))"
    }

    /// Why a table is skipped whose columns `earlier` and `later` are spellings of one name.
    package static func columnClash(_ earlier: String, _ later: String) -> String {
        "its columns \(describe(earlier)) and \(describe(later)) are two spellings of one name, which Persist "
            + "cannot tell apart as attributes"
    }

    /// Why the table `later` is skipped whose name is a spelling of the table `earlier`'s.
    package static func tableClash(kept earlier: String, skipped later: String) -> String {
        "its name \(describe(later)) is another spelling of the table \(describe(earlier)), which is the item type of "
            + "that name"
    }
}
