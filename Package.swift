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
    ],
    dependencies: [
        .package(url: "https://github.com/vapor/vapor.git", from: "4.110.0"),
        .package(url: "https://github.com/vapor/fluent.git", from: "4.12.0"),
        .package(url: "https://github.com/vapor/fluent-sqlite-driver.git", from: "4.8.0"),
        .package(url: "https://github.com/vapor/fluent-postgres-driver.git", from: "2.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.0.0"),
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
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .target(name: "MomentaryClient", dependencies: ["MomentaryCore"]),
        .executableTarget(name: "momentary", dependencies: ["MomentaryServer"]),
        .executableTarget(
            name: "Benchmarks",
            dependencies: ["MomentaryCore", "MomentaryServer", "MomentaryClient"],
            path: "Benchmarks"
        ),
        .testTarget(name: "MomentaryCoreTests", dependencies: ["MomentaryCore"]),
        .testTarget(
            name: "MomentaryServerTests",
            dependencies: [
                "MomentaryServer", "MomentaryClient",
                .product(name: "VaporTesting", package: "vapor"),
            ]
        ),
        .testTarget(name: "MomentaryClientTests", dependencies: ["MomentaryClient"]),
    ]
)
