/// What the articles' prose takes as given, declared for the compiler and never shown to a reader.
/// An article not named here type-checks as it stands.
enum ArticlePreludes {
    struct Prelude {
        var imports: Set<String> = []
        var code = ""
    }

    /// "an open store", as most articles' prose assumes one.
    static let store = "private let store: any DataStore = InMemoryDataStore()"

    /// The prelude of each article that needs one, by "Catalog/Article.md".
    static let preludes: [String: Prelude] = [
        "Persist/Aggregates.md": Prelude(code: store),
        "Persist/ChildStores.md": Prelude(code: store),
        // The reader's own engine, reader and writer, as the doc comments sketch them.
        "Persist/EngineCapabilities.md": Prelude(imports: DocCommentPrelude.imports, code: DocCommentPrelude.code),
        "Persist/GeneratedIdentifiers.md": Prelude(code: store + """

            /// The article's entity with integer identifiers, as the TodoList example has it.
            private struct Todo: DataStoreEntity {
                static let itemType = "Todo"
                var id: Int
                var title: String
            }
            """),
        "Persist/Indexes.md": Prelude(code: store),
        "Persist/LiveQueries.md": Prelude(code: store + """

            /// The app's own code that shows the list.
            @MainActor private func render(_ todos: [Item]) {}
            """),
        "Persist/MovingData.md": Prelude(imports: ["PersistGDBM", "PersistSQLite"]),
        "Persist/Relations.md": Prelude(code: store),
        "Persist/SetBasedWrites.md": Prelude(code: store),
        // The reader's own store: any class with an `init(path:)` that keeps the contract.
        "PersistConformance/PersistConformance.md": Prelude(imports: ["PersistSQLite", "Testing"],
                                                            code: "private typealias MyStore = SQLiteDataStore"),
    ]

    /// Articles read after another, as their prose says: the conformance guide adds a test to the
    /// landing page's suite and uses its `.myStore` factory.
    static let readWith: [String: String] = [
        "PersistConformance/ConformanceSuiteGuide.md": "PersistConformance/PersistConformance.md",
    ]

    /// Blocks that are no Swift a user's file holds, by article and block number (from 0).
    static let excluded: [String: Set<Int>] = [
        // The arguments of a package manifest, `Package.swift`, which SwiftPM compiles against
        // its PackageDescription module; not a fragment of the app's code.
        "Persist/GettingStarted.md": [0],
    ]
}
