// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Persist",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Persist", targets: ["Persist"]),
        .library(name: "PersistConformance", targets: ["PersistConformance"]),
        .library(name: "PersistSQL", targets: ["PersistSQL"]),
        .library(name: "PersistSQLite", targets: ["PersistSQLite"]),
        .library(name: "PersistGDBM", targets: ["PersistGDBM"]),
        .library(name: "PersistPostgres", targets: ["PersistPostgres"]),
        .executable(name: "persist-migrate", targets: ["persist-migrate"]),
        .executable(name: "persist-bench", targets: ["persist-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.1.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "Persist",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HashTreeCollections", package: "swift-collections"),
            ]
        ),
        .target(
            name: "PersistConformance",
            dependencies: ["Persist"]
        ),
        .target(
            name: "PersistSQL",
            dependencies: ["Persist"]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(
            name: "PersistSQLite",
            dependencies: [
                "Persist",
                "PersistSQL",
                "CSQLite",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .systemLibrary(
            name: "CGDBM",
            path: "Sources/CGDBM",
            providers: [.apt(["libgdbm-dev"])]
        ),
        .target(
            name: "PersistGDBM",
            dependencies: [
                "Persist",
                "PersistSQL",
                "CGDBM",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .target(
            name: "PersistPostgres",
            dependencies: [
                "Persist",
                "PersistSQL",
                "CLibPQ",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "persist-crash-worker",
            dependencies: [
                "Persist", "PersistGDBM", "PersistSQLite", "PersistPostgres", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .systemLibrary(
            name: "CLibFuzzer",
            path: "Sources/CLibFuzzer"
        ),
        .target(
            name: "PersistFuzzSupport",
            dependencies: ["CLibFuzzer"]
        ),
        .executableTarget(
            name: "persist-gdbm-fuzz",
            dependencies: ["Persist", "PersistGDBM", "PersistFuzzSupport"]
        ),
        .executableTarget(
            name: "persist-predicate-fuzz",
            dependencies: ["PersistConformance", "PersistFuzzSupport"]
        ),
        .executableTarget(
            name: "persist-migrate",
            dependencies: [
                "Persist", "PersistSQLite", "PersistGDBM", "PersistPostgres",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "persist-bench",
            dependencies: [
                "Persist", "PersistSQLite", "PersistGDBM", "PersistPostgres", "CSQLite", "CGDBM", "CLibPQ",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "QuickStart",
            dependencies: ["Persist"],
            path: "Examples/QuickStart"
        ),
        .executableTarget(
            name: "Basket",
            dependencies: ["Persist"],
            path: "Examples/Basket"
        ),
        .executableTarget(
            name: "Reminders",
            dependencies: ["Persist"],
            path: "Examples/Reminders"
        ),
        .executableTarget(
            name: "TodoList",
            dependencies: ["Persist", "PersistSQLite"],
            path: "Examples/TodoList"
        ),
        .executableTarget(
            name: "LegacyAdoption",
            dependencies: ["Persist", "PersistSQLite", "CSQLite"],
            path: "Examples/LegacyAdoption"
        ),
        .executableTarget(
            name: "LibpqAdoption",
            dependencies: ["Persist", "PersistPostgres", "CLibPQ"],
            path: "Examples/LibpqAdoption"
        ),
        .executableTarget(
            name: "StoreSwap",
            dependencies: ["Persist", "PersistSQLite", "PersistGDBM", .product(name: "Logging", package: "swift-log")],
            path: "Examples/StoreSwap"
        ),
        .executableTarget(
            name: "GDBMAdoption",
            dependencies: ["Persist", "PersistGDBM", "CGDBM"],
            path: "Examples/GDBMAdoption"
        ),
        .target(
            name: "JSONFileStore",
            dependencies: ["Persist"],
            path: "Examples/JSONFileStore"
        ),
        .executableTarget(
            name: "Tour",
            dependencies: ["Persist", "PersistSQLite"],
            path: "Examples/Tour"
        ),
        .executableTarget(
            name: "TourAsync",
            dependencies: ["Persist", "PersistSQLite"],
            path: "Examples/TourAsync"
        ),
        .executableTarget(
            name: "Repository",
            dependencies: ["Persist", "PersistSQLite"],
            path: "Examples/Repository"
        ),
        .target(
            name: "PersistTestSupport",
            dependencies: [
                "CSQLite", "CGDBM", "Persist", "PersistConformance", "PersistSQLite", "PersistGDBM",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/PersistTestSupport"
        ),
        .testTarget(
            name: "PersistTests",
            dependencies: ["Persist", "PersistConformance"],
            resources: [.copy("FuzzInputs")]
        ),
        .testTarget(
            name: "PersistSQLTests",
            dependencies: ["PersistSQL", "Persist"]
        ),
        .testTarget(
            name: "PersistSQLiteTests",
            dependencies: [
                "PersistSQLite", "PersistConformance", "CSQLite", "Persist", "PersistTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "PersistGDBMTests",
            dependencies: ["PersistGDBM", "PersistConformance", "CGDBM", "persist-crash-worker", "PersistTestSupport"]
        ),
        .testTarget(
            name: "PersistPostgresTests",
            dependencies: [
                "PersistPostgres", "Persist", "PersistConformance", "PersistTestSupport", "CLibPQ",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "PersistMigrateTests",
            dependencies: [
                "persist-migrate", "Persist", "PersistSQLite", "PersistGDBM", "PersistPostgres",
                "PersistTestSupport", "CSQLite", "CGDBM", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ReliabilityTests",
            dependencies: [
                "persist-crash-worker", "persist-migrate", "Persist", "PersistSQLite", "PersistGDBM", "PersistPostgres",
                "PersistConformance", "PersistTestSupport", "CSQLite", "CGDBM",
            ]
        ),
        .testTarget(
            name: "PersistBenchTests",
            dependencies: ["persist-bench", "PersistTestSupport"]
        ),
        .testTarget(
            name: "ExamplesTests",
            dependencies: ["QuickStart", "Basket", "Reminders", "TodoList", "Repository", "LegacyAdoption", "LibpqAdoption", "StoreSwap", "GDBMAdoption", "JSONFileStore", "Tour", "TourAsync",
                           "PersistConformance", "Persist", "PersistSQL", "PersistSQLite", "PersistGDBM", "PersistPostgres",
                           "CLibPQ",
                           "PersistTestSupport",
                           .product(name: "Logging", package: "swift-log")],
            exclude: ["Snippets"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
