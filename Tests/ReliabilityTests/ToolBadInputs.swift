import Foundation
import Persist
import PersistConformance
import PersistGDBM
import PersistTestSupport
import Testing

/// The bad-input cases for `persist-migrate`: its arguments, its sources and its targets.
enum ToolBadInputs {
    static let cases: [BadInputCase] = arguments + sources + targets + values

    /// A source, `old.db`, holding a few items.
    static func source(_ scene: BadInputScene) throws {
        try StoreFiles.gdbm(scene.path("old.db"), holding: StoreFiles.items(count: 20))
    }

    static let arguments: [BadInputCase] = [
        (["--from", "gdbm", "--to", "sqlite:new.sqlite"], "--from gdbm names the source's kind but no path"),
        (["--from", "gdbm:old.db", "--to", "sqlite"], "--to sqlite names the target's kind but no path"),
        (["--from", "gdbm:", "--to", "sqlite:new.sqlite"], "--from \"gdbm:\" has no path"),
        (["--from", "gdbm:old.db", "--to", "sqlite:"], "--to \"sqlite:\" has no path"),
        (["--from", "oracle:old.db", "--to", "sqlite:new.sqlite"], "unknown kind \"oracle\""),
        (["--from", "gdbm:old.db", "--to", "dbm:new.sqlite"], "unknown kind \"dbm\""),
    ].map { arguments, message in
        BadInputCase("tool: \(arguments.joined(separator: " ")) exits 64 (usage)", prepare: source) { scene in
            try scene.expectTool(arguments, exits: 64, naming: message)
        }
    }

    static let sources: [BadInputCase] = StoreKind.allCases.flatMap { kind -> [BadInputCase] in
        let other: StoreKind = kind == .sqlite ? .gdbm : .sqlite
        let to = ["--to", "\(other):new.\(other)"]
        return [
            BadInputCase("tool, \(kind) source: a missing file exits 66") { scene in
                try scene.expectTool(["--from", "\(kind):missing.\(kind)"] + to, exits: 66, naming: "missing.\(kind)")
            },
            BadInputCase("tool, \(kind) source: a directory exits 66", prepare: { scene in
                try FileManager.default.createDirectory(atPath: scene.path("folder"), withIntermediateDirectories: false)
            }) { scene in
                try scene.expectTool(["--from", "\(kind):folder"] + to, exits: 66, naming: "folder")
            },
            BadInputCase("tool, \(kind) source: random bytes exit 66", prepare: { scene in
                try scene.write("noise.bin", BadInputScene.randomBytes(4096))
            }) { scene in
                try scene.expectTool(["--from", "\(kind):noise.bin"] + to, exits: 66, naming: "noise.bin")
            },
            BadInputCase("tool, \(kind) source: a file of the other kind exits 66", prepare: { scene in
                try LibraryBadInputs.notes(other, scene.path("other.\(other)"))
            }) { scene in
                try scene.expectTool(["--from", "\(kind):other.\(other)"] + to, exits: 66, naming: "other.\(other)")
            },
            BadInputCase("tool, \(kind) source: a truncated file exits 66", prepare: { scene in
                if kind == .sqlite {
                    try LibraryBadInputs.legacyDatabase(scene.path("cut.sqlite"))
                    try scene.truncate("cut.sqlite", to: (fileBytes(scene.path("cut.sqlite"))?.count ?? 0) / 2)
                } else {
                    try LibraryBadInputs.notes(.gdbm, scene.path("cut.gdbm"), count: 400)
                    try scene.truncate("cut.gdbm", to: 5000)
                }
            }) { scene in
                try scene.expectTool(["--from", "\(kind):cut.\(kind)"] + to, exits: 66, naming: "cut.\(kind)")
            },
        ]
    } + [
        BadInputCase("tool, gdbm source: an empty file exits 66", prepare: { scene in
            try scene.write("empty.db", [])
        }) { scene in
            try scene.expectTool(["--from", "gdbm:empty.db", "--to", "sqlite:new.sqlite"], exits: 66, naming: "empty.db")
        },
        BadInputCase("tool, sqlite source: an empty file is no store (though SQLite would open it) and exits 66",
                     prepare: { scene in
            try scene.write("empty.sqlite", [])
        }) { scene in
            try scene.expectTool(["--from", "sqlite:empty.sqlite", "--to", "gdbm:new.db"], exits: 66, naming: "empty.sqlite")
        },
        BadInputCase("tool, gdbm source: a file another process writes exits 75", prepare: { scene in
            try source(scene)
            try scene.hold("old.db", readOnly: false)
        }) { scene in
            try scene.expectTool(["--from", "gdbm:old.db", "--to", "sqlite:new.sqlite"], exits: 75, naming: "old.db")
        },
        BadInputCase("tool, gdbm source: an undecodable record exits 65", prepare: { scene in
            try source(scene)
            try ForeignFile.store(scene.path("old.db"), key: GDBMStorageFormat.encodeKey(itemType: "Restaurant", id: 7),
                                  value: [GDBMStorageFormat.recordVersion, 0xff, 0xff, 0xff])
        }) { scene in
            try scene.expectTool(["--from", "gdbm:old.db", "--to", "sqlite:new.sqlite"], exits: 65, naming: "old.db")
        },
        BadInputCase("tool, gdbm source: a record of a newer format version exits 65", prepare: { scene in
            try source(scene)
            try ForeignFile.store(scene.path("old.db"), key: GDBMStorageFormat.encodeKey(itemType: "Restaurant", id: 7),
                                  value: [GDBMStorageFormat.recordVersion + 1, 0x00])
        }) { scene in
            try scene.expectTool(["--from", "gdbm:old.db", "--to", "sqlite:new.sqlite"], exits: 65, naming: "old.db")
        },
        BadInputCase("tool, gdbm source: a file of a newer format version exits 66", prepare: { scene in
            try ForeignFile.create(scene.path("future.db"), pairs: [
                GDBMStorageFormat.metadataKey: GDBMStorageFormat.metadataMagic + [UInt8(GDBMStorageFormat.formatVersion + 1)],
            ])
        }) { scene in
            try scene.expectTool(["--from", "gdbm:future.db", "--to", "sqlite:new.sqlite"], exits: 66, naming: "future.db")
        },
    ]

    static let targets: [BadInputCase] = StoreKind.allCases.flatMap { kind -> [BadInputCase] in [
        BadInputCase("tool, \(kind) target: a read-only file exits 73", prepare: { scene in
            try source(scene)
            try LibraryBadInputs.notes(kind, scene.path("locked.\(kind)"), count: 3)
            try scene.makeReadOnly("locked.\(kind)")
        }) { scene in
            try scene.expectTool(["--from", "gdbm:old.db", "--to", "\(kind):locked.\(kind)"], exits: 73, naming: "locked.\(kind)")
        },
        BadInputCase("tool, \(kind) target: a directory exits 73", prepare: { scene in
            try source(scene)
            try FileManager.default.createDirectory(atPath: scene.path("folder.\(kind)"), withIntermediateDirectories: false)
        }) { scene in
            try scene.expectTool(["--from", "gdbm:old.db", "--to", "\(kind):folder.\(kind)"], exits: 73, naming: "folder.\(kind)")
        },
        BadInputCase("tool, \(kind) target: random bytes exit 73", prepare: { scene in
            try source(scene)
            try scene.write("noise.\(kind)", BadInputScene.randomBytes(4096))
        }) { scene in
            try scene.expectTool(["--from", "gdbm:old.db", "--to", "\(kind):noise.\(kind)"], exits: 73, naming: "noise.\(kind)")
        },
    ] } + [
        BadInputCase("tool, gdbm target: a file another process writes exits 75", prepare: { scene in
            try source(scene)
            try LibraryBadInputs.notes(.gdbm, scene.path("held.db"), count: 3)
            try scene.hold("held.db", readOnly: false)
        }) { scene in
            try scene.expectTool(["--from", "gdbm:old.db", "--to", "gdbm:held.db"], exits: 75, naming: "held.db")
        },
    ]

    /// Copies `items` from a `kind` store to a new store of the other kind and back; every copy
    /// must hold exactly the items.
    static func roundTrip(_ items: [Item], from kind: StoreKind, _ scene: BadInputScene) throws {
        let other: StoreKind = kind == .sqlite ? .gdbm : .sqlite
        try scene.expectToolSucceeds(["--from", "\(kind):source.\(kind)", "--to", "\(other):copy.\(other)"])
        try scene.expectToolSucceeds(["--from", "\(other):copy.\(other)", "--to", "\(kind):back.\(kind)"])
        for (copyKind, name) in [(other, "copy.\(other)"), (kind, "back.\(kind)")] {
            // Read-write, so that SQLite removes its -wal and -shm again when the store closes.
            let store = copyKind.store(scene.path(name))
            try store.setup()
            let copied = try store.read { accessor in
                Set(try accessor.itemTypes().flatMap { try accessor.items(forRequest: DataStoreRequest(itemType: $0)) })
            }
            try store.tearDown()
            #expect(copied == Set(items), "\(name) differs: \(copied.subtracting(items).prefix(3))")
        }
    }

    /// A case copying `items` from a new `kind` store, `source.<kind>`, to the other kind and back.
    static func roundTripCase(_ name: String, from kind: StoreKind, _ items: @escaping @Sendable () -> [Item]) -> BadInputCase {
        let other: StoreKind = kind == .sqlite ? .gdbm : .sqlite
        return BadInputCase(name, creates: ["copy.\(other)", "back.\(kind)"], prepare: { scene in
            try StoreFiles.create(kind, scene.path("source.\(kind)"), holding: items())
        }) { scene in
            try roundTrip(items(), from: kind, scene)
        }
    }

    static let values: [BadInputCase] = StoreKind.allCases.map { kind in
        roundTripCase("tool, \(kind) to \(kind == .sqlite ? "gdbm" : "sqlite") and back: every Value edge case", from: kind) {
            // Each value in an attribute of its kind, and all of them mixed in one attribute.
            EdgeValues.all.enumerated().map { index, value in
                Item(itemType: "Edge", id: .int(Int64(index)), attributes: [value.kind.rawValue: value, "any": value])
            }
        }
    } + [
        roundTripCase("tool, gdbm to sqlite and back: hostile type and attribute names", from: .gdbm) {
            let attributes = Dictionary(uniqueKeysWithValues: HostileNames.attributeNames.enumerated().map {
                ($1, Value.int(Int64($0)))
            })
            return HostileNames.typeNames.map { Item(itemType: $0, id: "x", attributes: attributes) }
        },
        roundTripCase("tool, gdbm to sqlite and back: a 64 MiB value", from: .gdbm) {
            [Item(itemType: "Blob", id: "big", attributes: ["bytes": .bytes(LibraryBadInputs.hugeBytes)])]
        },
    ]
}
