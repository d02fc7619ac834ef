// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "SwiftErr",
    products: [
        .library(name: "SwiftErr", targets: ["SwiftErr"]),
        .library(name: "CErrCore", targets: ["CErrCore"]),
        .executable(name: "errcat", targets: ["errcat"]),
    ],
    targets: [
        .target(name: "CErrCore"),
        .target(name: "SwiftErr", dependencies: ["CErrCore"]),
        .executableTarget(name: "errcat", dependencies: ["SwiftErr", "CErrCore"]),
        .testTarget(name: "CErrCoreTests", dependencies: ["CErrCore"], exclude: ["c"]),
        .testTarget(name: "SwiftErrTests", dependencies: ["SwiftErr", "CErrCore"]),
        .testTarget(name: "ErrcatTests", dependencies: ["errcat", "SwiftErr"]),
        .testTarget(name: "StressTests", dependencies: ["SwiftErr"]),
    ],
    swiftLanguageModes: [.v6],
    cLanguageStandard: .c11
)
