// Compiling what `errcat gen` writes, as a user of the package would: generated C with gcc and
// clang under -std=c11 -Wall -Wextra -Wpedantic -Werror against the C core's sources, generated
// Swift with swiftc against the package's own SwiftErr module (the one `swift build` made for
// these tests), and running the results.

import ChildProcess
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What a finished child process left behind.
struct ToolRun {
    var status: Int32
    var output: String
    var errors: String
    var succeeded: Bool { status == 0 }
}

/// The compilers and package products the generated-source tests need.
enum GeneratedSourceToolchain {
    static let root = ErrcatRunner.repositoryRoot

    /// `gcc` and `clang` from `PATH`, each when installed (CI has both; the toolchain ships clang).
    static let cCompilers: [String] = ["gcc", "clang"].compactMap(onPath)

    /// `swiftc`: `SWIFTC` from the environment, else the first on `PATH`.
    static let swiftc: String? = ProcessInfo.processInfo.environment["SWIFTC"] ?? onPath("swiftc")

    /// The first executable `name` on `PATH`, or nil.
    static func onPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// The build directory of these tests (`.build/<triple>/<configuration>`), which holds
    /// `Modules/SwiftErr.swiftmodule` and each target's objects in `<Target>.build/`. Found from
    /// the test bundle (or `SWIFTERR_BUILD_DIR`), checked to hold what is needed.
    static let buildDirectory: URL? = {
        var candidates: [URL] = []
        if let path = ProcessInfo.processInfo.environment["SWIFTERR_BUILD_DIR"] {
            candidates.append(URL(fileURLWithPath: path))
        }
        candidates.append(Bundle.main.bundleURL)
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        return candidates.first { directory in
            FileManager.default.fileExists(
                atPath: directory.appendingPathComponent("Modules/SwiftErr.swiftmodule").path)
                && FileManager.default.fileExists(atPath: directory.appendingPathComponent("SwiftErr.build").path)
        }
    }()

    /// Why the Swift half cannot run here, or nil when it can.
    static var swiftUnavailable: String? {
        if swiftc == nil { return "no swiftc on PATH (set SWIFTC)" }
        if buildDirectory == nil {
            return
                "no SwiftErr.swiftmodule next to the test bundle \(Bundle.main.bundleURL.path) (set SWIFTERR_BUILD_DIR)"
        }
        return nil
    }

    /// Runs `executable` with `arguments`; stdout and stderr go to files, so no pipe can block.
    static func run(_ executable: String, _ arguments: [String], in directory: URL) async throws -> ToolRun {
        let outputURL = directory.appendingPathComponent("tool-\(UUID().uuidString).out")
        let errorURL = directory.appendingPathComponent("tool-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL)
        let error = try FileHandle(forWritingTo: errorURL)
        defer {
            try? output.close()
            try? error.close()
            try? FileManager.default.removeItem(at: outputURL)
            try? FileManager.default.removeItem(at: errorURL)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        let status = try await ChildProcess.run(process)
        return ToolRun(
            status: status,
            output: String(decoding: try Data(contentsOf: outputURL), as: UTF8.self),
            errors: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self))
    }

    /// The C core's sources but the built-in catalog (a test program links its own tables).
    static func coreSources() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources/CErrCore").path)
            .filter { $0.hasSuffix(".c") && $0 != "default_catalog.c" }.sorted()
            .map { root.appendingPathComponent("Sources/CErrCore/\($0)").path }
    }

    /// Compiles C `sources` with the core into `binary` with `compiler` under
    /// `-std=c11 -Wall -Wextra -Wpedantic -Werror`.
    static func compileC(_ compiler: String, sources: [URL], binary: URL, in directory: URL) async throws -> ToolRun {
        try await run(
            compiler,
            [
                "-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-O1", "-I",
                root.appendingPathComponent("include").path,
            ]
                + sources.map(\.path) + (try coreSources()) + ["-o", binary.path], in: directory)
    }

    /// A module map for the C core and the built-in catalog's C target in `directory` (the
    /// package's own include directory), as SwiftPM's targets CErrCore and CErrDefaultCatalog.
    static func moduleMap(in directory: URL) throws -> URL {
        let map = directory.appendingPathComponent("CErrCore.modulemap")
        // The folders SwiftPM's targets have: CErrCore's links every core header but the built-in
        // catalog's, which an umbrella header's folder must not hold.
        let header = root.appendingPathComponent("Sources/CErrCore/include/CErrCore.h").path
        let defaultCatalog = root.appendingPathComponent("Sources/CErrDefaultCatalog/include/errcore_default_catalog.h")
            .path
        try Data(
            """
            module CErrCore {
                umbrella header "\(header)"
                export *
            }
            module CErrDefaultCatalog {
                header "\(defaultCatalog)"
                export *
            }

            """.utf8
        ).write(to: map)
        return map
    }

    /// Copies generated Swift files into `directory` with `import SwiftErr` first (a user's
    /// module imports the package; the generated text itself is unchanged below that line).
    static func importing(_ files: [URL], into directory: URL) throws -> [URL] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try files.map { file in
            let copy = directory.appendingPathComponent(file.lastPathComponent)
            try (Data("import SwiftErr\n".utf8) + Data(contentsOf: file)).write(to: copy)
            return copy
        }
    }

    /// `swiftc` arguments that find SwiftErr, SwiftErrCore and the C core's module.
    private static func swiftModuleArguments(in directory: URL) throws -> [String] {
        let build = try #require(buildDirectory)
        return [
            "-I", build.appendingPathComponent("Modules").path, "-Xcc",
            "-fmodule-map-file=\(try moduleMap(in: directory).path)", "-I",
            root.appendingPathComponent("Sources/CErrCore/include").path,
        ]
    }

    /// `swiftc -typecheck` over `files` (which import SwiftErr), as one module; whole-module
    /// mode type-checks hundreds of generated files in one frontend process.
    static func typecheckSwift(_ files: [URL], in directory: URL) async throws -> ToolRun {
        let swiftc = try #require(swiftc)
        let options = ["-typecheck", "-wmo", "-module-name", "GeneratedCatalogs"]
        return try await run(
            swiftc, options + (try swiftModuleArguments(in: directory)) + files.map(\.path), in: directory)
    }

    /// The sanitizer these tests (and so the package's objects) were built with, as a swiftc
    /// option: a program linked with those objects needs its runtime.
    static let sanitizerOption: [String] = {
        let program = dlopen(nil, RTLD_NOW)
        if dlsym(program, "__asan_init") != nil { return ["-sanitize=address"] }
        if dlsym(program, "__tsan_init") != nil { return ["-sanitize=thread"] }
        return []
    }()

    /// Compiles `files` (one of them `main.swift`) into `binary`, linked with the objects that
    /// `swift build` made for SwiftErr, SwiftErrCore and CErrCore: one per current source file
    /// (`<file>.swift.o`, `<file>.c.o`), so objects of files since renamed or removed are left out.
    static func buildSwift(_ files: [URL], binary: URL, in directory: URL) async throws -> ToolRun {
        let swiftc = try #require(swiftc)
        let build = try #require(buildDirectory)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        var objects: [String] = []
        for target in ["SwiftErr", "SwiftErrCore", "CErrCore"] {
            let folder = build.appendingPathComponent("\(target).build")
            let sources = root.appendingPathComponent("Sources/\(target)")
            let names = (FileManager.default.enumerator(atPath: sources.path)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".swift") || $0.hasSuffix(".c") }
                .map { URL(fileURLWithPath: $0).lastPathComponent + ".o" }
            objects += names.sorted().map { folder.appendingPathComponent($0).path }
        }
        return try await run(
            swiftc,
            ["-wmo", "-Onone", "-module-name", "GeneratedCatalogs"] + sanitizerOption
                + (try swiftModuleArguments(in: directory)) + files.map(\.path) + objects + ["-o", binary.path],
            in: directory)
    }
}
