import ArgumentParser
import Persist
import PersistGDBM

/// `--rename-type`, `--rename-attribute`, `--drop-attribute` and `--raw-value`: how items are
/// reshaped on the way, built on the library's ``MigrationReshape`` and
/// ``MigrationOptions/transform``.
struct ReshapeOptions: ParsableArguments {
    @Option(name: .customLong("rename-type"), help: ArgumentHelp(
        "Write items of type Old as type New (repeatable).", valueName: "Old=New"))
    var renameTypes: [String] = []

    @Option(name: .customLong("rename-attribute"), help: ArgumentHelp(
        "Write attribute old of Type as new (repeatable).", valueName: "Type.old=new"))
    var renameAttributes: [String] = []

    @Option(name: .customLong("drop-attribute"), help: ArgumentHelp(
        "Leave attribute name of Type out (repeatable).", valueName: "Type.name"))
    var dropAttributes: [String] = []

    @Option(name: .customLong("raw-value"), help: ArgumentHelp(
        "How raw GDBM values become attributes.", valueName: "mode"))
    var rawValue: RawValueMode = .bytes

    /// The rules, parsed and checked on their own.
    ///
    /// - Throws: `ValidationError` (exit 64) for a malformed rule or a set of rules that contradict
    ///   each other.
    func reshape() throws -> MigrationReshape {
        var rules: [MigrationReshape.Rule] = []
        for spec in renameTypes {
            let (old, new) = try Self.split(spec, at: "=", option: "--rename-type", form: "Old=New", spec: spec)
            rules.append(.renameType(old, to: new))
        }
        for spec in renameAttributes {
            let (left, new) = try Self.split(spec, at: "=", option: "--rename-attribute", form: "Type.old=new", spec: spec)
            let (itemType, old) = try Self.split(left, at: ".", option: "--rename-attribute", form: "Type.old=new", spec: spec)
            rules.append(.renameAttribute(old, ofType: itemType, to: new))
        }
        for spec in dropAttributes {
            let (itemType, name) = try Self.split(spec, at: ".", option: "--drop-attribute", form: "Type.name", spec: spec)
            rules.append(.dropAttribute(name, ofType: itemType))
        }
        let reshape = MigrationReshape(rules)
        do {
            try reshape.validate()
        } catch let error as DataStoreError {
            throw ValidationError(error.message)
        }
        return reshape
    }

    /// Splits `text` at the first `=` (`Old=New`, `Type.old=new`) or, for `Type.name`, at the last
    /// `.` (so that type names may hold dots); both sides must be non-empty.
    private static func split(_ text: String, at separator: Character, option: String, form: String, spec: String)
        throws -> (String, String)
    {
        let found = separator == "." ? text.lastIndex(of: separator) : text.firstIndex(of: separator)
        guard let index = found else { throw ValidationError("\(option) \(spec): expected \(form)") }
        let left = String(text[..<index])
        let right = String(text[text.index(after: index)...])
        guard !left.isEmpty, !right.isEmpty else {
            let names = separator == "." ? "a type and an attribute name" : "names on both sides of '='"
            throw ValidationError("\(option) \(spec): expected \(form), with \(names)")
        }
        return (left, right)
    }

    /// Sets up `options` for the stores given: the reshape through the library's row path, after
    /// the values of a raw source are decoded (so that the rules see, and count, the decoded
    /// attributes) and before those of a raw target are encoded.
    func configure(_ options: inout MigrationOptions, source: StorePlan, target: StorePlan) throws {
        options.reshape = try reshape()
        let mode = rawValue
        guard mode != .bytes else { return }
        if source.kind == .gdbm, let decoding = Self.rawAttribute(of: source.layout) {
            options.decode = { item in try mode.decode(item, attribute: decoding) }
        }
        if target.kind == .gdbm, let encoding = Self.rawAttribute(of: target.layout) {
            options.transform = { item in try mode.encode(item, attribute: encoding) }
        }
    }

    /// The hint for a data error that a reshape rule or `--raw-value` raised, or `nil` for other errors.
    static func hint(for message: String) -> String? {
        if message.contains("--raw-value") {
            return "choose another --raw-value (bytes copies values as they are), or repair the value named above"
        }
        if ["--rename-type", "--rename-attribute", "--drop-attribute"].contains(where: message.contains) {
            return "change the rule named above (or drop the attribute in the way), or leave the type out with --types"
        }
        return nil
    }

    /// Whether the summary should warn that `--raw-value` has no raw store to apply to.
    func rawValueUnused(source: StorePlan, target: StorePlan) -> Bool {
        rawValue != .bytes && Self.rawAttribute(of: source.layout, kind: source.kind) == nil
            && Self.rawAttribute(of: target.layout, kind: target.kind) == nil
    }

    private static func rawAttribute(of layout: GDBMDataStore.Options.Layout, kind: StoreName.Kind = .gdbm) -> String? {
        guard kind == .gdbm, case .raw(_, let attribute) = layout else { return nil }
        return attribute
    }
}
