// swift-tools-version: 6.2
// A Hummingbird 2 gateway in front of an envelope API: proxies /api/* to an upstream through
// async-http-client, classifies every answer with SwiftErr (tokenExpire becomes 401), reloads its
// catalog file on SIGHUP and on an admin endpoint of 127.0.0.1, and serves /metrics in Prometheus
// format. `upstream` is the canned API it is tested and loaded against;
// `flaky-upstream` fails a chosen share of requests, or goes down for a while, and `resilience-load`
// loads the gateway in front of it, for the resilience figures; `recovery-run` measures the recovery
// after an outage of the gateway and of a ResponseClient in real time, and in the simulation.
import PackageDescription

let package = Package(
    name: "Gateway",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "SwiftErr", path: "../.."),
        .package(path: "../../Integrations/SwiftErrAsyncHTTPClient"),
        .package(path: "../../Integrations/SwiftErrObservability"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        .target(
            name: "GatewayKit",
            dependencies: [
                .product(name: "SwiftErr", package: "SwiftErr"),
                .product(name: "SwiftErrDefaultCatalog", package: "SwiftErr"),
                .product(name: "SwiftErrCatalogFile", package: "SwiftErr"),
                .product(name: "SwiftErrAsyncHTTPClient", package: "SwiftErrAsyncHTTPClient"),
                .product(name: "SwiftErrObservability", package: "SwiftErrObservability"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "GatewaySimulation",
            dependencies: [
                "GatewayKit",
                .product(name: "SwiftErr", package: "SwiftErr"),
                .product(name: "SwiftErrTesting", package: "SwiftErr"),
            ]
        ),
        .executableTarget(
            name: "recovery-run",
            dependencies: [
                "GatewayKit",
                "GatewaySimulation",
                .product(name: "SwiftErr", package: "SwiftErr"),
                .product(name: "SwiftErrDefaultCatalog", package: "SwiftErr"),
                .product(name: "SwiftErrTesting", package: "SwiftErr"),
                .product(name: "SwiftErrAsyncHTTPClient", package: "SwiftErrAsyncHTTPClient"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .executableTarget(
            name: "gateway",
            dependencies: [
                "GatewayKit",
                .product(name: "SwiftErr", package: "SwiftErr"),
                .product(name: "SwiftErrCatalogFile", package: "SwiftErr"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "upstream",
            dependencies: [
                "GatewayKit",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "resilience-load",
            dependencies: [
                "GatewayKit",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "flaky-upstream",
            dependencies: [
                "GatewayKit",
                .product(name: "SwiftErrTesting", package: "SwiftErr"),
            ]
        ),
        .testTarget(
            name: "GatewayTests",
            dependencies: [
                "GatewayKit",
                "GatewaySimulation",
                .product(name: "SwiftErr", package: "SwiftErr"),
                .product(name: "SwiftErrDefaultCatalog", package: "SwiftErr"),
                .product(name: "SwiftErrTesting", package: "SwiftErr"),
                .product(name: "SwiftErrCatalogFile", package: "SwiftErr"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
