// swift-tools-version: 6.1
// The SwiftErr benchmarks: a package of its own so the root package keeps no dependencies.
// Run from this folder: `swift package benchmark` (package-benchmark suites) and
// `swift run -c release compare` (the side-by-side table against the baselines).
import PackageDescription

let package = Package(
    name: "SwiftErrBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "SwiftErr", path: "../"),
        .package(
            url: "https://github.com/ordo-one/benchmark",
            .upToNextMajor(from: "1.38.0"),
            traits: ["MallocInterposer"]
        ),
    ],
    targets: [
        // C baselines, synthetic tables and input streams, measured on the same arrays.
        .target(
            name: "CBaselines",
            dependencies: [.product(name: "SwiftErr", package: "SwiftErr")]
        ),
        // Swift baselines (Int enums, Dictionary) and the shared workload.
        .target(
            name: "Baselines",
            dependencies: [
                "CBaselines",
                .product(name: "SwiftErr", package: "SwiftErr"),
                .product(name: "SwiftErrDefaultCatalog", package: "SwiftErr"),
            ]
        ),
        // Counts allocations (malloc interposed on glibc): only `compare` links it.
        .target(name: "AllocationCounter"),
        // Prints the side-by-side table: `swift run -c release compare [--json] [--count N]`.
        .executableTarget(
            name: "compare",
            dependencies: [
                "AllocationCounter", "Baselines", "CBaselines", .product(name: "SwiftErr", package: "SwiftErr"),
                .product(name: "SwiftErrDefaultCatalog", package: "SwiftErr"),
            ]
        ),
        // package-benchmark suite: `swift package benchmark`.
        .executableTarget(
            name: "ErrCoreBenchmarks",
            dependencies: [
                "Baselines",
                "CBaselines",
                .product(name: "SwiftErr", package: "SwiftErr"),
                .product(name: "SwiftErrDefaultCatalog", package: "SwiftErr"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/ErrCoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // package-benchmark suite: what an AuthenticationSession costs, and how soon it releases
        // the requests waiting on a refresh (`swift package benchmark --target SessionBenchmarks`).
        .executableTarget(
            name: "SessionBenchmarks",
            dependencies: [
                "Baselines",
                .product(name: "SwiftErr", package: "SwiftErr"),
                .product(name: "SwiftErrDefaultCatalog", package: "SwiftErr"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/SessionBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // package-benchmark suite of the resilience primitives: `swift package benchmark --target ResilienceBenchmarks`.
        .executableTarget(
            name: "ResilienceBenchmarks",
            dependencies: [
                .product(name: "SwiftErr", package: "SwiftErr"),
                .product(name: "SwiftErrDefaultCatalog", package: "SwiftErr"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/ResilienceBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6],
    cLanguageStandard: .c11
)
