/// What the store reads from a table's `CREATE TABLE` text in `sqlite_schema`: where its list of
/// definitions closes (to add a table constraint there) and the names of its foreign keys, which
/// `PRAGMA foreign_key_list` does not give.
///
/// Only tokens are read: quoted names (`"…"`, `` `…` ``, `[…]`), string literals, comments,
/// parentheses and commas are told apart, so that none of them inside a name or a default value
/// is taken for the end of the list.
struct TableSQL {
    /// A foreign key as the text declares it.
    struct ForeignKey: Equatable {
        /// The constraint name, when the text gives one (`CONSTRAINT name …`).
        let name: String?
        /// The referring columns.
        let columns: [String]
        /// The referred table, as the text names it.
        let parent: String
    }

    private enum Token: Equatable {
        case word(String)
        case quoted(String)
        case open, close, comma, other
    }

    /// The text.
    let sql: String
    /// The offset, in UTF-8 bytes, of the `)` that closes the list of definitions; `nil` when the
    /// text has no such list.
    private(set) var listEnd: Int?
    /// The foreign keys, in the order the text declares them.
    private(set) var foreignKeys: [ForeignKey] = []

    init(_ sql: String) {
        self.sql = sql
        var definitions: [[Token]] = [[]]
        var depth = 0
        for (token, offset) in Self.tokens(of: Array(sql.utf8)) {
            switch token {
            case .open:
                depth += 1
                if depth == 1 { continue }
            case .close:
                depth -= 1
                if depth == 0 {
                    listEnd = offset
                    break
                }
            case .comma where depth == 1:
                definitions.append([])
                continue
            default:
                break
            }
            if listEnd != nil { break }
            if depth >= 1 { definitions[definitions.count - 1].append(token) }
        }
        guard listEnd != nil else { return }
        foreignKeys = definitions.compactMap(Self.foreignKey)
    }

    /// The text with `definition` added as the last entry of the list of definitions; `nil` when
    /// the text has no list.
    func adding(definition: String) -> String? {
        guard let listEnd else { return nil }
        let bytes = Array(sql.utf8)
        return String(decoding: bytes[..<listEnd], as: UTF8.self) + ", " + definition
            + String(decoding: bytes[listEnd...], as: UTF8.self)
    }

    /// The foreign key one definition declares, if any.
    private static func foreignKey(_ tokens: [Token]) -> ForeignKey? {
        guard let first = tokens.first else { return nil }
        var rest = tokens[...]
        var name: String?
        if first == .word("CONSTRAINT"), tokens.count > 1 {
            name = identifier(tokens[1])
            rest = tokens.dropFirst(2)
        }
        if rest.first == .word("FOREIGN") {
            // FOREIGN KEY (a, b) REFERENCES parent …
            let afterKey = rest.dropFirst(2)
            guard afterKey.first == .open, let close = afterKey.firstIndex(of: .close) else { return nil }
            let columns = afterKey[afterKey.startIndex + 1 ..< close].compactMap(identifier)
            let referencing = afterKey[(close + 1)...]
            guard referencing.first == .word("REFERENCES"), referencing.count > 1,
                  let parent = identifier(referencing[referencing.startIndex + 1]) else { return nil }
            return ForeignKey(name: name, columns: columns, parent: parent)
        }
        guard name == nil, let column = identifier(first),
              !["PRIMARY", "UNIQUE", "CHECK"].contains(column.uppercased()) || first != .word(column.uppercased()),
              let references = tokens.firstIndex(of: .word("REFERENCES")), references + 1 < tokens.count,
              let parent = identifier(tokens[references + 1]) else { return nil }
        // A column's REFERENCES constraint: named when CONSTRAINT name comes just before it.
        var constraintName: String?
        if references >= 2, tokens[references - 2] == .word("CONSTRAINT") {
            constraintName = identifier(tokens[references - 1])
        }
        return ForeignKey(name: constraintName, columns: [column], parent: parent)
    }

    private static func identifier(_ token: Token) -> String? {
        switch token {
        case .word(let word): word
        case .quoted(let name): name
        default: nil
        }
    }

    /// The tokens of the text with their UTF-8 offsets; words are upper-cased only when they are
    /// ASCII keywords (their spelling is kept otherwise, as a bare name).
    private static func tokens(of bytes: [UInt8]) -> [(Token, Int)] {
        var tokens: [(Token, Int)] = []
        var index = 0
        func text(_ from: Int, _ to: Int) -> String { String(decoding: bytes[from..<to], as: UTF8.self) }
        while index < bytes.count {
            let byte = bytes[index]
            let start = index
            switch byte {
            case UInt8(ascii: "("): tokens.append((.open, start)); index += 1
            case UInt8(ascii: ")"): tokens.append((.close, start)); index += 1
            case UInt8(ascii: ","): tokens.append((.comma, start)); index += 1
            case UInt8(ascii: "-") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "-"):
                while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
                index += 2
                while index < bytes.count && !(bytes[index] == UInt8(ascii: "*") && index + 1 < bytes.count
                                                && bytes[index + 1] == UInt8(ascii: "/")) { index += 1 }
                index = min(index + 2, bytes.count)
            case UInt8(ascii: "\""), UInt8(ascii: "`"), UInt8(ascii: "'"), UInt8(ascii: "["):
                let closing = byte == UInt8(ascii: "[") ? UInt8(ascii: "]") : byte
                var content: [UInt8] = []
                index += 1
                while index < bytes.count {
                    if bytes[index] == closing {
                        // A doubled quote is the quote itself (not in [brackets]).
                        if closing != UInt8(ascii: "]"), index + 1 < bytes.count, bytes[index + 1] == closing {
                            content.append(closing)
                            index += 2
                            continue
                        }
                        break
                    }
                    content.append(bytes[index])
                    index += 1
                }
                index = min(index + 1, bytes.count)
                tokens.append((byte == UInt8(ascii: "'") ? .other : .quoted(String(decoding: content, as: UTF8.self)), start))
            case _ where isWordByte(byte):
                while index < bytes.count && isWordByte(bytes[index]) { index += 1 }
                let word = text(start, index)
                tokens.append((.word(isKeyword(word) ? word.uppercased() : word), start))
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0C:
                index += 1
            default:
                tokens.append((.other, start))
                index += 1
            }
        }
        return tokens
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        byte >= 0x80 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
            || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    private static let keywords: Set<String> = ["CONSTRAINT", "FOREIGN", "KEY", "REFERENCES", "PRIMARY", "UNIQUE", "CHECK"]

    private static func isKeyword(_ word: String) -> Bool {
        keywords.contains(word.uppercased())
    }
}
