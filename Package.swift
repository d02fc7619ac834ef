// swift-tools-version: 6.1
// SwiftErr: integer response codes → typed outcomes. No package dependencies.
//
// The target graph is the layering:
//
//   CErrCore        C11 core: tables, builder, branch-free classifier, texts (also a plain C library)
//      ↑
//   SwiftErrCore    Foundation-free Swift over the core: catalogs, module enums, classification
//      ↑                (compiles as Embedded Swift for firmware)
//   SwiftErr        envelopes, ModuleRespError, descriptions, adapters, channel, status, retry, recovery
//      ↑        ↖
//   ErrcatKit    SwiftErrTesting (test doubles: manual clock, recording presenter)
//      ↑
//   errcat          the command-line tool (a thin main)
import PackageDescription

let package = Package(
    name: "SwiftErr",
    products: [
        .library(name: "SwiftErr", targets: ["SwiftErr"]),
        .library(name: "SwiftErrCore", targets: ["SwiftErrCore"]),
        .library(name: "SwiftErrTesting", targets: ["SwiftErrTesting"]),
        .library(name: "CErrCore", targets: ["CErrCore"]),
        .library(name: "ErrcatKit", targets: ["ErrcatKit"]),
        .executable(name: "errcat", targets: ["errcat"]),
    ],
    targets: [
        .target(name: "CErrCore"),
        .target(name: "SwiftErrCore", dependencies: ["CErrCore"]),
        .target(name: "SwiftErr", dependencies: ["SwiftErrCore", "CErrCore"]),
        .target(name: "SwiftErrTesting", dependencies: ["SwiftErr"]),
        .target(name: "ErrcatKit", dependencies: ["SwiftErr", "CErrCore"]),
        .executableTarget(name: "errcat", dependencies: ["ErrcatKit"]),

        .testTarget(name: "CErrCoreTests", dependencies: ["CErrCore"], exclude: ["c"]),
        .testTarget(name: "SwiftErrCoreTests", dependencies: ["SwiftErrCore", "SwiftErrTesting", "CErrCore"]),
        .testTarget(name: "SwiftErrTests", dependencies: ["SwiftErr", "SwiftErrTesting", "CErrCore"]),
        .testTarget(name: "ErrcatKitTests", dependencies: ["ErrcatKit", "SwiftErr"]),
        .testTarget(name: "errcatTests", dependencies: ["errcat"]),
    ],
    swiftLanguageModes: [.v6],
    cLanguageStandard: .c11
)
