// swift-tools-version: 6.1
// SwiftErr: integer response codes → typed outcomes. No package dependencies.
//
// The target graph is the layering (products marked *):
//
//   CErrCore             C11 core: tables, builder, branch-free classifier, texts (also a plain C
//      ↑                     library through the Makefile and pkg-config)
//   SwiftErrCore*        Foundation-free Swift over the core: catalogs, module enums, classification
//      ↑                     (compiles as Embedded Swift for firmware)
//   SwiftErr*            envelopes, ModuleRespError, descriptions, adapters, channel, status, retry,
//      ↑      ↖              recovery, ResponseClient over any HTTPTransport; no networking library
//      ↑    SwiftErrURLSession*   URLSessionTransport and the URLRequest forms of ResponseClient
//      ↑    SwiftErrTesting*      test doubles: manual clock, recording presenter, loopback HTTP server
//   SwiftErrCatalogFile  catalog files: reader, checks, generated-name rules, display text
//      ↑
//   ErrcatKit            errcat's commands, testable in process
//      ↑
//   errcat*              the command-line tool (a thin main)
import PackageDescription

let package = Package(
    name: "SwiftErr",
    platforms: [.macOS(.v13), .iOS(.v16), .macCatalyst(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "SwiftErr", targets: ["SwiftErr"]),
        .library(name: "SwiftErrCore", targets: ["SwiftErrCore"]),
        .library(name: "SwiftErrURLSession", targets: ["SwiftErrURLSession"]),
        .library(name: "SwiftErrTesting", targets: ["SwiftErrTesting"]),
        .executable(name: "errcat", targets: ["errcat"]),
    ],
    targets: [
        .target(name: "CErrCore"),
        .target(name: "SwiftErrCore", dependencies: ["CErrCore"]),
        .target(name: "SwiftErr", dependencies: ["SwiftErrCore", "CErrCore"]),
        .target(name: "SwiftErrURLSession", dependencies: ["SwiftErr"]),
        .target(name: "SwiftErrTesting", dependencies: ["SwiftErr"]),
        .target(name: "SwiftErrCatalogFile", dependencies: ["SwiftErr", "CErrCore"]),
        .target(name: "ErrcatKit", dependencies: ["SwiftErrCatalogFile", "SwiftErr", "CErrCore"]),
        .executableTarget(name: "errcat", dependencies: ["ErrcatKit"]),

        .testTarget(name: "CErrCoreTests", dependencies: ["CErrCore"], exclude: ["c"]),
        .testTarget(name: "SwiftErrCoreTests", dependencies: ["SwiftErrCore", "SwiftErrTesting", "CErrCore"]),
        .testTarget(name: "SwiftErrTests", dependencies: ["SwiftErr", "SwiftErrTesting", "CErrCore"]),
        .testTarget(name: "SwiftErrURLSessionTests", dependencies: ["SwiftErrURLSession", "SwiftErrTesting"]),
        .testTarget(name: "SwiftErrTestingTests", dependencies: ["SwiftErrTesting"]),
        .testTarget(
            name: "SwiftErrCatalogFileTests", dependencies: ["SwiftErrCatalogFile", "SwiftErr", "SwiftErrTesting"]),
        .testTarget(name: "ErrcatKitTests", dependencies: ["ErrcatKit", "SwiftErrCatalogFile", "SwiftErr"]),
        .testTarget(name: "errcatTests", dependencies: ["errcat"]),
    ],
    swiftLanguageModes: [.v6],
    cLanguageStandard: .c11
)
