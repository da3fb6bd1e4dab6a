import CGDBM
import Foundation
import Persist
import PersistConformance
import PersistGDBM
import PersistSQLite
import PersistTestSupport
import Testing

/// The bad-input cases for the library: opening, reading and writing through the stores.
enum LibraryBadInputs {
    /// A native GDBM store or an SQLite database holding `count` notes.
    static func notes(_ kind: StoreKind, _ path: String, count: Int = 50) throws {
        try StoreFiles.create(kind, path, holding: (0..<count).map { index in
            Item(itemType: "Note", id: .int(Int64(index)), attributes: ["text": .string("note \(index)"), "tags": ["a", 1]])
        })
    }

    /// An SQLite database of `rows` rows written by plain SQL in rollback-journal mode, as a legacy
    /// program would.
    static func legacyDatabase(_ path: String, rows: Int = 200) throws {
        let raw = try RawDatabase(path)
        try raw.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); BEGIN;")
        for index in 0..<rows {
            _ = try raw.rows("INSERT INTO notes VALUES (?, ?)", [.integer(Int64(index)), .text("note \(index) " + String(repeating: "x", count: 200))])
        }
        try raw.exec("COMMIT;")
        raw.close()
    }

    static let tooDeep = EdgeValues.deeplyNested(depth: BinaryValueCoding.maximumDepth + 1)

    /// Writes a value nested one level deeper than allowed into `store`, as a plain item and through
    /// a mutable item: both are refused with `invalidArgument` naming the store, and nothing changes.
    static func expectTooDeepRefused(_ store: any DataStore, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = try allItems(store, "Note")
        let errors = [
            expectError(.invalidArgument, sourceLocation: sourceLocation) {
                try store.writeSync { try $0.insert(Item(itemType: "Note", id: "deep", attributes: ["tree": tooDeep])) }
            },
            expectError(.invalidArgument, sourceLocation: sourceLocation) {
                try store.writeSync { accessor in
                    try accessor.insert(Item(itemType: "Note", id: "fine"))
                    let note = try accessor.createItem(ofType: "Note", id: "deep")
                    note["tree"] = tooDeep
                }
            },
        ]
        for error in errors {
            #expect(error?.path == store.location && error?.message.contains(store.location) == true,
                    "\(String(describing: error)) does not name \(store.location)", sourceLocation: sourceLocation)
            #expect(error?.items == [ItemReference(itemType: "Note", id: "deep")], sourceLocation: sourceLocation)
        }
        #expect(try allItems(store, "Note") == before, sourceLocation: sourceLocation)
    }

    /// 64 MiB of bytes that are not all alike.
    static var hugeBytes: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 64 << 20)
        for index in stride(from: 0, to: bytes.count, by: 4093) { bytes[index] = UInt8(index % 251) }
        return bytes
    }

    static let cases: [BadInputCase] = missingAndMisplaced + damaged + held + records + values

    static let missingAndMisplaced: [BadInputCase] = StoreKind.allCases.flatMap { kind in [
        BadInputCase("library, \(kind): a missing file, not to be created, is notFound and stays missing") { scene in
            // SQLite's advice differs: a read-only store never creates its database, whatever createIfMissing says.
            scene.expectOpenFailure(kind, "missing.\(kind)", .notFound, engineCode: kind == .sqlite ? 14 : nil,
                                    hint: kind == .sqlite ? "createIfMissing" : nil, openings: [.existingOnly])
            scene.expectOpenFailure(kind, "missing.\(kind)", .notFound, engineCode: kind == .sqlite ? 14 : nil,
                                    hint: kind == .sqlite ? "never creates" : nil, openings: [.readOnly])
        },
        BadInputCase("library, \(kind): a file in a missing folder is notFound") { scene in
            scene.expectOpenFailure(kind, "no/such/folder.\(kind)", .notFound, openings: [.readWrite, .readOnly])
        },
        BadInputCase("library, \(kind): a directory is invalidArgument", prepare: { scene in
            try FileManager.default.createDirectory(atPath: scene.path("folder.\(kind)"), withIntermediateDirectories: false)
        }) { scene in
            scene.expectOpenFailure(kind, "folder.\(kind)", .invalidArgument, hint: "directory")
        },
    ] }

    static let damaged: [BadInputCase] = [
        BadInputCase("library, gdbm: an empty file is corrupt and is not made a database", prepare: { scene in
            try scene.write("empty.db", [])
        }) { scene in
            scene.expectOpenFailure(.gdbm, "empty.db", .corrupt, hint: "empty")
        },
        BadInputCase("library, sqlite: an empty file is an empty database; read-only it stays empty", prepare: { scene in
            try scene.write("empty.sqlite", [])
        }) { scene in
            // SQLite's own rule: a zero-length file is a database with nothing in it.
            let store = StoreKind.sqlite.store(scene.path("empty.sqlite"), readOnly: true)
            try store.setup()
            #expect(try store.read { try $0.itemTypes() } == [])
            let error = expectError(.readOnly) { try store.writeSync { try $0.insert(Item(itemType: "Note", id: 1)) } }
            scene.expectNames(error, scene.path("empty.sqlite"), hint: nil, "write")
            try store.tearDown()
        },
        BadInputCase("library, sqlite: random bytes are corrupt (not a database)", prepare: { scene in
            try scene.write("random.sqlite", BadInputScene.randomBytes(8192))
        }) { scene in
            scene.expectOpenFailure(.sqlite, "random.sqlite", .corrupt, engineCode: 26)
        },
        BadInputCase("library, gdbm: random bytes are corrupt (bad magic number)", prepare: { scene in
            try scene.write("random.db", BadInputScene.randomBytes(5000))
        }) { scene in
            scene.expectOpenFailure(.gdbm, "random.db", .corrupt, engineCode: Int(GDBM_BAD_MAGIC_NUMBER))
        },
        BadInputCase("library, sqlite: a truncated database is corrupt", prepare: { scene in
            try legacyDatabase(scene.path("truncated.sqlite"))
            try scene.truncate("truncated.sqlite", to: (fileBytes(scene.path("truncated.sqlite"))?.count ?? 0) / 2)
        }) { scene in
            scene.expectOpenFailure(.sqlite, "truncated.sqlite", .corrupt, engineCode: 11)
        },
        BadInputCase("library, gdbm: a file truncated inside its header is corrupt", prepare: { scene in
            try notes(.gdbm, scene.path("truncated.db"), count: 400)
            try scene.truncate("truncated.db", to: 100)
        }) { scene in
            scene.expectOpenFailure(.gdbm, "truncated.db", .corrupt)
        },
        BadInputCase("library, gdbm: a file truncated inside its bucket directory is corrupt", prepare: { scene in
            try notes(.gdbm, scene.path("truncated.db"), count: 400)
            try scene.truncate("truncated.db", to: 5000)
        }) { scene in
            scene.expectOpenFailure(.gdbm, "truncated.db", .corrupt)
        },
        BadInputCase("library, gdbm: an SQLite database is corrupt, and the message says it is SQLite", prepare: { scene in
            try notes(.sqlite, scene.path("app.sqlite"))
        }) { scene in
            scene.expectOpenFailure(.gdbm, "app.sqlite", .corrupt, hint: "SQLite")
        },
        BadInputCase("library, sqlite: a GDBM file is corrupt (not a database)", prepare: { scene in
            try notes(.gdbm, scene.path("legacy.db"))
        }) { scene in
            scene.expectOpenFailure(.sqlite, "legacy.db", .corrupt, engineCode: 26)
        },
        BadInputCase("library, gdbm: a foreign GDBM file opened in the native layout is corrupt, pointing to .raw",
                     prepare: { scene in
            try ForeignFile.create(scene.path("foreign.db"), pairs: [Array("key".utf8): Array("value".utf8)])
        }) { scene in
            scene.expectOpenFailure(.gdbm, "foreign.db", .corrupt, hint: ".raw")
        },
    ]

    static let held: [BadInputCase] = [
        BadInputCase("library, gdbm: a file another process writes is locked, for writers and readers", prepare: { scene in
            try notes(.gdbm, scene.path("held.db"))
            try scene.hold("held.db", readOnly: false)
        }) { scene in
            scene.expectOpenFailure(.gdbm, "held.db", .locked)
        },
        BadInputCase("library, gdbm: a file another process reads is locked for writers", prepare: { scene in
            try notes(.gdbm, scene.path("shared.db"))
            try scene.hold("shared.db", readOnly: true)
        }) { scene in
            scene.expectOpenFailure(.gdbm, "shared.db", .locked, openings: [.readWrite])
        },
    ] + StoreKind.allCases.map { kind in
        BadInputCase("library, \(kind): a read-only file opened for writing is readOnly", prepare: { scene in
            try notes(kind, scene.path("locked.\(kind)"))
            try scene.makeReadOnly("locked.\(kind)")
        }) { scene in
            scene.expectOpenFailure(kind, "locked.\(kind)", .readOnly, engineCode: kind == .sqlite ? 8 : nil,
                                    openings: [.readWrite])
        }
    }

    static let records: [BadInputCase] = [
        BadInputCase("library, gdbm: an undecodable record is corrupt when read, naming the item", prepare: { scene in
            try notes(.gdbm, scene.path("damaged.db"), count: 3)
            try ForeignFile.store(scene.path("damaged.db"), key: GDBMStorageFormat.encodeKey(itemType: "Note", id: 1),
                                  value: [GDBMStorageFormat.recordVersion, 0x01, 0x01, 0x61, 0x05, 0x05, 0xFF])
        }) { scene in
            try scene.expectReadFailure(.gdbm, "damaged.db", .corrupt, item: ItemReference(itemType: "Note", id: 1)) {
                _ = try $0.items(forRequest: DataStoreRequest(itemType: "Note"))
            }
        },
        BadInputCase("library, sqlite: an undecodable nested value is corrupt when read, naming the item", prepare: { scene in
            try notes(.sqlite, scene.path("damaged.sqlite"), count: 3)
            let raw = try RawDatabase(scene.path("damaged.sqlite"))
            try raw.exec("UPDATE Note SET tags = X'FFFF' WHERE persist_id = 1")
            raw.close()
        }) { scene in
            try scene.expectReadFailure(.sqlite, "damaged.sqlite", .corrupt, item: ItemReference(itemType: "Note", id: 1)) {
                _ = try $0.item(ofType: "Note", id: 1)
            }
        },
        BadInputCase("library, gdbm: a record of a newer format version is unsupported when read", prepare: { scene in
            try notes(.gdbm, scene.path("future.db"), count: 3)
            try ForeignFile.store(scene.path("future.db"), key: GDBMStorageFormat.encodeKey(itemType: "Note", id: 2),
                                  value: [GDBMStorageFormat.recordVersion + 1, 0x00])
        }) { scene in
            try scene.expectReadFailure(.gdbm, "future.db", .unsupported, item: ItemReference(itemType: "Note", id: 2)) {
                _ = try $0.item(ofType: "Note", id: 2)
            }
        },
        BadInputCase("library, gdbm: a file of a newer format version is unsupported", prepare: { scene in
            try ForeignFile.create(scene.path("future.db"), pairs: [
                GDBMStorageFormat.metadataKey: GDBMStorageFormat.metadataMagic + [UInt8(GDBMStorageFormat.formatVersion + 1)],
            ])
        }) { scene in
            scene.expectOpenFailure(.gdbm, "future.db", .unsupported, hint: "version \(GDBMStorageFormat.formatVersion + 1)")
        },
        BadInputCase("library, gdbm: a file whose format record is damaged is corrupt", prepare: { scene in
            try ForeignFile.create(scene.path("odd.db"), pairs: [GDBMStorageFormat.metadataKey: Array("not a format record".utf8)])
        }) { scene in
            scene.expectOpenFailure(.gdbm, "odd.db", .corrupt, hint: "format record")
        },
        BadInputCase("library, sqlite: a column kind of a newer version is unsupported", prepare: { scene in
            try notes(.sqlite, scene.path("future.sqlite"), count: 3)
            let raw = try RawDatabase(scene.path("future.sqlite"))
            try raw.exec("UPDATE persist_columns SET kind = 'vector' WHERE column_name = 'tags'")
            raw.close()
        }) { scene in
            scene.expectOpenFailure(.sqlite, "future.sqlite", .unsupported, hint: "newer version")
        },
    ]

    static let values: [BadInputCase] = StoreKind.allCases.flatMap { kind in [
        BadInputCase("library, \(kind): a value nested deeper than BinaryValueCoding.maximumDepth is invalidArgument",
                     prepare: { scene in
            try notes(kind, scene.path("deep.\(kind)"), count: 3)
        }) { scene in
            let store = kind.store(scene.path("deep.\(kind)"))
            try store.setup()
            try expectTooDeepRefused(store)
            try store.tearDown()
        },
        BadInputCase("library, \(kind): a 64 MiB value round-trips", creates: ["big.\(kind)"]) { scene in
            let item = Item(itemType: "Blob", id: "big", attributes: ["bytes": .bytes(hugeBytes)])
            let path = scene.path("big.\(kind)")
            try StoreFiles.create(kind, path, holding: [item])
            let store = kind.store(path)
            try store.setup()
            #expect(try allItems(store, "Blob") == [item])
            try store.tearDown()
        },
    ] } + [
        BadInputCase("library, in-memory and child stores: a value nested deeper than the maximum is invalidArgument",
                     prepare: { scene in
            try notes(.sqlite, scene.path("parent.sqlite"), count: 3)
            try notes(.gdbm, scene.path("parent.db"), count: 3)
        }) { scene in
            let memory = InMemoryDataStore()
            try memory.setup()
            // Exactly the maximum depth is fine.
            let deepest = Item(itemType: "Note", id: "deepest", attributes: ["tree": EdgeValues.deeplyNested(depth: BinaryValueCoding.maximumDepth)])
            try seed(memory, [deepest])
            #expect(try allItems(memory, "Note") == [deepest])
            try expectTooDeepRefused(memory)
            for parent in [StoreKind.sqlite.store(scene.path("parent.sqlite")), StoreKind.gdbm.store(scene.path("parent.db"))] {
                try parent.setup()
                let child = try parent.makeChildDataStore()
                try child.setup()
                try expectTooDeepRefused(child)
                #expect(child.changeCount == 0)
                try child.tearDown()
                try parent.tearDown()
            }
        },
    ]
}
