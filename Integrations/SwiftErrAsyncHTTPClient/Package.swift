// swift-tools-version: 6.2
// SwiftErr on async-http-client: ResponseClient's one-call request sent through `HTTPClient`, with a
// response body size limit. Its own package, so the root package keeps no dependencies.
import PackageDescription

let package = Package(
    name: "SwiftErrAsyncHTTPClient",
    // SwiftErr's floor (its Package.swift): a lower version on any platform would not build
    // against it there.
    platforms: [.macOS(.v13), .iOS(.v16), .macCatalyst(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "SwiftErrAsyncHTTPClient", targets: ["SwiftErrAsyncHTTPClient"])
    ],
    dependencies: [
        .package(name: "SwiftErr", path: "../.."),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .target(
            name: "SwiftErrAsyncHTTPClient",
            dependencies: [
                .product(name: "SwiftErr", package: "SwiftErr"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "SwiftErrAsyncHTTPClientTests",
            dependencies: [
                "SwiftErrAsyncHTTPClient",
                .product(name: "SwiftErr", package: "SwiftErr"),
                .product(name: "SwiftErrDefaultCatalog", package: "SwiftErr"),
                .product(name: "SwiftErrTesting", package: "SwiftErr"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
