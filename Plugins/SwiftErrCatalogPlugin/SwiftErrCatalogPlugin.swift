// SwiftErrCatalogPlugin: the build-tool plugin that turns a target's catalog file into Swift at
// build time, with the same reader, checks and generator as `errcat gen swift`.

import PackagePlugin

/// Generates a Swift target's module enums, base codes and catalog from its catalog file.
///
/// The catalog file is the target's source file named `catalog.json` or `<anything>.catalog.json`
/// (the format of `errcat check`). One build command per target runs
/// `errcat gen swift --installing CATALOG --output <work dir>/<name>.generated.swift`: its inputs are the
/// catalog file and errcat, its output that one Swift file, so SwiftPM runs it again only when one
/// of them changed. A catalog with problems fails the build with errcat's
/// `/abs/path/catalog.json:LINE:COLUMN: error: MESSAGE` lines, which `swift build` and Xcode show at
/// that place.
///
/// A target holds one catalog (one process installs one catalog): two catalog files in a target are
/// an error naming both. Applying the plugin to a C target is an error too: SwiftPM 6.3 compiles no
/// C that a plugin generates (use `make gen` / `errcat gen c` for C). A Swift target without a
/// catalog file gets a warning and nothing generated.
@main
struct SwiftErrCatalogPlugin: BuildToolPlugin {
    /// The suffix a catalog file's name ends with; `catalog.json` itself matches too.
    static let suffix = ".catalog.json"

    /// Whether a file name names a catalog file.
    static func isCatalog(_ name: String) -> Bool {
        name == "catalog.json" || (name.hasSuffix(suffix) && name.count > suffix.count)
    }

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let catalogs = target.sourceFiles.map(\.url).filter { Self.isCatalog($0.lastPathComponent) }
            .sorted { $0.path < $1.path }
        guard target is SwiftSourceModuleTarget else {
            Diagnostics.error(
                "SwiftErrCatalogPlugin generates Swift, and \(target.name) is not a Swift target: SwiftPM compiles no C that a plugin generates; write a C table with `make gen CATALOG=...` or `errcat gen c` instead"
            )
            return []
        }
        guard let catalog = catalogs.first else {
            Diagnostics.warning(
                "SwiftErrCatalogPlugin: target \(target.name) has no catalog file (catalog.json or NAME\(Self.suffix)); nothing is generated"
            )
            return []
        }
        guard catalogs.count == 1 else {
            Diagnostics.error(
                "SwiftErrCatalogPlugin: target \(target.name) has \(catalogs.count) catalog files (\(catalogs.map(\.path).joined(separator: ", "))); a target holds one catalog, because a process installs one"
            )
            return []
        }
        let name = catalog.lastPathComponent
        // `catalog.json` gives `catalog.generated.swift`: a name the target's own files are unlikely to
        // have (swiftc refuses two files of one name in a module).
        let output = context.pluginWorkDirectoryURL.appending(
            path: String(name.dropLast(".json".count)) + ".generated.swift")
        let errcat = try context.tool(named: "errcat").url
        return [
            .buildCommand(
                displayName: "Generating Swift from \(name) (\(target.name))",
                executable: errcat,
                arguments: ["gen", "swift", "--installing", catalog.path, "--output", output.path],
                inputFiles: [catalog, errcat],
                outputFiles: [output])
        ]
    }
}
