import ArgumentParser
import Persist
import PersistGDBM

/// `--if-exists fail|replace|skip` names the library's own policy.
extension MigrationOptions.ExistingItems: ExpressibleByArgument {}

/// `--from-layout` and `--to-layout` name the library's GDBM layouts: `native`, or `raw` (whose
/// item type `--raw-type` then sets).
extension GDBMDataStore.Options.Layout: ExpressibleByArgument {
    public init?(argument: String) {
        switch argument {
        case "native": self = .native
        case "raw": self = .raw()
        default: return nil
        }
    }

    public static var allValueStrings: [String] { ["native", "raw"] }

    public var defaultValueDescription: String { name }

    /// `native` or `raw`, as the options and the summary write it.
    var name: String {
        switch self {
        case .native: "native"
        case .raw: "raw"
        }
    }

    /// Whether this is the raw layout of files written by other programs.
    var isRaw: Bool { name == "raw" }

    /// The same layout, with raw pairs read as (or written from) items of `rawType`.
    func withRawType(_ rawType: String) -> Self {
        switch self {
        case .native: .native
        case .raw(_, let attribute): .raw(itemType: rawType, attribute: attribute)
        }
    }
}
