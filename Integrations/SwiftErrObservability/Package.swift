// swift-tools-version: 6.2
// SwiftErr observed: swift-metrics counters and a timer of what was classified (bounded labels),
// swift-log metadata on failures, swift-distributed-tracing span attributes.
import PackageDescription

let package = Package(
    name: "SwiftErrObservability",
    // SwiftErr's floor (its Package.swift): a lower version on any platform would not build
    // against it there.
    platforms: [.macOS(.v13), .iOS(.v16), .macCatalyst(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "SwiftErrObservability", targets: ["SwiftErrObservability"])
    ],
    dependencies: [
        .package(name: "SwiftErr", path: "../.."),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
    ],
    targets: [
        .target(
            name: "SwiftErrObservability",
            dependencies: [
                .product(name: "SwiftErr", package: "SwiftErr"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        .testTarget(
            name: "SwiftErrObservabilityTests",
            dependencies: [
                "SwiftErrObservability",
                .product(name: "SwiftErr", package: "SwiftErr"),
                .product(name: "SwiftErrDefaultCatalog", package: "SwiftErr"),
                .product(name: "SwiftErrURLSession", package: "SwiftErr"),
                .product(name: "SwiftErrTesting", package: "SwiftErr"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
