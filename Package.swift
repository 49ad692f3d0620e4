// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Momentary",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "MomentaryCore", targets: ["MomentaryCore"]),
        .library(name: "MomentaryServer", targets: ["MomentaryServer"]),
        .library(name: "MomentaryClient", targets: ["MomentaryClient"]),
        .executable(name: "momentary", targets: ["momentary"]),
        .executable(name: "momentary-bench", targets: ["Benchmarks"]),
        // The local Web Push service as a process, for the browser tests (Tests/Browser).
        .executable(name: "momentary-test-push", targets: ["MomentaryTestPush"]),
    ],
    dependencies: [
        .package(url: "https://github.com/vapor/vapor.git", from: "4.110.0"),
        .package(url: "https://github.com/vapor/fluent.git", from: "4.12.0"),
        .package(url: "https://github.com/vapor/fluent-sqlite-driver.git", from: "4.8.0"),
        .package(url: "https://github.com/vapor/fluent-postgres-driver.git", from: "2.10.0"),
        // Used directly (raw SQL, SQLite rows read by position, Leaf's tags), not only through Fluent and Leaf.
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.30.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.0"),
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.10.0"),
        // Statements kept prepared on PostgreSQL connections (PostgresNIO's PostgresPreparedStatement).
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.21.0"),
        .package(url: "https://github.com/vapor/leaf-kit.git", from: "1.10.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.24.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.1.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.0.0"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.35.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.29.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.10.0"),
        .package(url: "https://github.com/vapor/leaf.git", from: "4.4.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation.git", from: "0.9.19"),
        // Tests parse openapi.yaml as the YAML it is, as OpenAPI tools do.
        .package(url: "https://github.com/jpsim/Yams.git", from: "5.0.1"),
    ],
    targets: [
        // The domain: Foundation only, so the iOS app can use the very same code.
        .target(name: "MomentaryCore"),
        .target(
            name: "MomentaryServer",
            dependencies: [
                "MomentaryCore",
                .product(name: "Vapor", package: "vapor"),
                .product(name: "Fluent", package: "fluent"),
                .product(name: "FluentSQLiteDriver", package: "fluent-sqlite-driver"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "Leaf", package: "leaf"),
                .product(name: "LeafKit", package: "leaf-kit"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            resources: [.copy("Website/Views"), .copy("Public")]
        ),
        // Local stand-ins for outside services that speak their real protocols (an HTTP/2 APNs
        // server, a Web Push service), used by the tests and the benchmarks.
        .target(
            name: "MomentaryTestServers",
            dependencies: [
                "MomentaryCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ]
        ),
        .executableTarget(name: "MomentaryTestPush", dependencies: ["MomentaryTestServers"]),
        .target(name: "MomentaryClient", dependencies: ["MomentaryCore"]),
        // The `momentary` command line: the server's commands plus the command-line participant
        // (`momentary participant …`), which is built on the client library as a phone app is.
        .target(
            name: "MomentaryCLI",
            dependencies: [
                "MomentaryServer", "MomentaryClient", "MomentaryCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "momentary", dependencies: ["MomentaryCLI", "MomentaryServer"]),
        .executableTarget(
            name: "Benchmarks",
            dependencies: [
                "MomentaryCore", "MomentaryServer", "MomentaryCLI", "MomentaryClient", "MomentaryTestServers",
                .product(name: "Vapor", package: "vapor"),
                .product(name: "Fluent", package: "fluent"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            path: "Benchmarks",
            // The benchmarks written in Python (they drive a built `momentary` from outside), and the
            // baseline with the script that compares a run with it.
            exclude: ["scripts", "compare.py", "baseline.json"]
        ),
        .testTarget(name: "MomentaryCoreTests", dependencies: ["MomentaryCore"]),
        .testTarget(
            name: "MomentaryServerTests",
            dependencies: [
                "MomentaryServer", "MomentaryCLI", "MomentaryClient", "MomentaryTestServers",
                .product(name: "VaporTesting", package: "vapor"),
                // The export tests open the workbooks they produce.
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Yams", package: "Yams"),
            ],
            // Files other systems write (Beiwe, Reporter), read by path: see Fixtures/FORMATS.md.
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "MomentaryClientTests", dependencies: ["MomentaryClient"]),
    ]
)
