import Foundation
import Persist
import PersistTestSupport

/// The exit matrix's reshape rows: `--rename-type`, `--rename-attribute`, `--drop-attribute` and
/// `--raw-value`. A malformed or contradictory rule is a usage error found before anything is
/// opened; a rule the source's data breaks is a data error naming the item; a rule that matches
/// nothing only warns.
extension ExitMatrix {
    static func rawFile(_ name: String, _ pairs: [[UInt8]: [UInt8]]) -> @Sendable (TemporaryDirectory) throws -> Void {
        { directory in try ForeignFile.create(directory.path(name), pairs: pairs) }
    }

    static let reshape: [ExitCase] = [
        ExitCase(name: "--rename-type without =", arguments: ["old.db", "new.sqlite", "--rename-type", "Restaurant"],
                 status: 64, mentions: ["--rename-type Restaurant: expected Old=New"]),
        ExitCase(name: "--rename-type with an empty name", arguments: ["old.db", "new.sqlite", "--rename-type", "=Place"],
                 status: 64, mentions: ["--rename-type =Place", "names on both sides"]),
        ExitCase(name: "--rename-attribute without a type", arguments: ["old.db", "new.sqlite", "--rename-attribute", "name=title"],
                 status: 64, mentions: ["--rename-attribute name=title: expected Type.old=new"]),
        ExitCase(name: "--rename-attribute without =", arguments: ["old.db", "new.sqlite", "--rename-attribute", "Restaurant.name"],
                 status: 64, mentions: ["expected Type.old=new"]),
        ExitCase(name: "--drop-attribute with an empty name", arguments: ["old.db", "new.sqlite", "--drop-attribute", "Restaurant."],
                 status: 64, mentions: ["--drop-attribute Restaurant.", "a type and an attribute name"]),
        ExitCase(name: "a type renamed to itself", arguments: ["old.db", "new.sqlite", "--rename-type", "Review=Review"],
                 status: 64, mentions: ["renamed to itself"]),
        ExitCase(name: "two types renamed to one name",
                 arguments: ["old.db", "new.sqlite", "--rename-type", "Restaurant=Place", "--rename-type", "Review=Place"],
                 status: 64, mentions: ["two types cannot become one"]),
        ExitCase(name: "a type renamed twice",
                 arguments: ["old.db", "new.sqlite", "--rename-type", "Review=A", "--rename-type", "Review=B"],
                 status: 64, mentions: ["Review is already renamed to A"]),
        ExitCase(name: "two attributes renamed to one name",
                 arguments: ["old.db", "new.sqlite", "--rename-attribute", "Restaurant.name=title",
                             "--rename-attribute", "Restaurant.logo=title"],
                 status: 64, mentions: ["two attributes cannot become one"]),
        ExitCase(name: "an attribute renamed and dropped",
                 arguments: ["old.db", "new.sqlite", "--rename-attribute", "Restaurant.name=title",
                             "--drop-attribute", "Restaurant.name"],
                 status: 64, mentions: ["--drop-attribute Restaurant.name", "already applies"]),
        ExitCase(name: "an unknown --raw-value", arguments: ["old.db", "new.sqlite", "--raw-value", "xml"], status: 64,
                 mentions: ["--raw-value"]),
        ExitCase(name: "a type renamed to another type of the source",
                 arguments: ["old.db", "new.sqlite", "--rename-type", "Review=Restaurant"], status: 65,
                 mentions: ["--rename-type Review=Restaurant", "already has items of type Restaurant"]),
        ExitCase(name: "a type renamed to a type of the source that --types leaves out",
                 arguments: ["old.db", "new.sqlite", "--rename-type", "Review=Restaurant", "--types", "Review"], status: 0,
                 mentions: ["--rename-type Review=Restaurant applied to"], creates: ["new.sqlite"]),
        ExitCase(name: "a type renamed to a type of the source that --types leaves out, into a raw file with --raw-value",
                 arguments: ["two.gdbm", "raw.dbm", "--to-layout", "raw", "--raw-value", "utf8", "--rename-type", "Old=Entry",
                             "--types", "Old"],
                 status: 0, mentions: ["--rename-type Old=Entry applied to 1 item(s)"], creates: ["raw.dbm"],
                 prepare: { directory in
                     try StoreFiles.gdbm(directory.path("two.gdbm"), holding: [
                         Item(itemType: "Entry", id: .bytes([0x61]), attributes: ["value": "left out"]),
                         Item(itemType: "Old", id: .bytes([0x61]), attributes: ["value": "copied"]),
                     ])
                 }),
        ExitCase(name: "a type renamed to another type of the source, into a raw file with --raw-value",
                 arguments: ["two.sqlite", "raw.dbm", "--to-layout", "raw", "--raw-value", "utf8", "--rename-type", "Old=Entry"],
                 status: 65, mentions: ["--rename-type Old=Entry", "already has items of type Entry"],
                 prepare: { directory in
                     try StoreFiles.sqlite(directory.path("two.sqlite"), holding: [
                         Item(itemType: "Entry", id: "a", attributes: ["value": "kept"]),
                         Item(itemType: "Old", id: "a", attributes: ["value": "would overwrite it"]),
                     ])
                 }),
        ExitCase(name: "an attribute renamed to one the item has",
                 arguments: ["old.db", "new.sqlite", "--rename-attribute", "Restaurant.name=rating"], status: 65,
                 mentions: ["--rename-attribute Restaurant.name=rating", "Restaurant/", "already has an attribute \"rating\""]),
        ExitCase(name: "a type renamed to a name the target reserves",
                 arguments: ["old.db", "new.sqlite", "--rename-type", "Review=sqlite_review"], status: 65,
                 mentions: ["sqlite_"]),
        ExitCase(name: "--raw-value utf8 on a value that is not UTF-8", arguments: ["legacy.dbm", "new.sqlite", "--raw-value", "utf8"],
                 status: 65, mentions: ["Entry/", "not valid UTF-8"], refuses: ["transform failed"],
                 prepare: rawFile("legacy.dbm", [Array("good".utf8): Array("fine".utf8), Array("bad".utf8): [0xFF, 0xFE]])),
        ExitCase(name: "--raw-value json on a value that is not JSON", arguments: ["legacy.dbm", "new.sqlite", "--raw-value", "json"],
                 status: 65, mentions: ["Entry/", "not valid JSON"],
                 prepare: rawFile("legacy.dbm", [Array("k".utf8): Array("{\"a\": 1,}".utf8)])),
        ExitCase(name: "--types naming a type's new name, not the source's",
                 arguments: ["old.db", "new.sqlite", "--rename-type", "Review=Rating", "--types", "Rating"], status: 0,
                 mentions: ["--types names \"Rating\", which the source does not have; it is the name --rename-type "
                                + "Review=Rating gives, and --types takes the source's names: --types Review copies those items"],
                 creates: ["new.sqlite"]),
        ExitCase(name: "a rule that matches nothing only warns",
                 arguments: ["old.db", "new.sqlite", "--rename-type", "Ghost=Spirit", "--drop-attribute", "Review.none"],
                 status: 0, mentions: ["--rename-type Ghost=Spirit matched no item", "--drop-attribute Review.none matched no item"],
                 creates: ["new.sqlite"]),
        ExitCase(name: "--raw-value without a raw store only warns", arguments: ["old.db", "new.sqlite", "--raw-value", "json"],
                 status: 0, mentions: ["--raw-value json has no effect"], creates: ["new.sqlite"]),
    ]
}
