// `errcat diff OLD.json NEW.json`: the breaking-change check between two versions of a catalog.

import SwiftErr
import SwiftErrCatalogFile

enum DiffCommand: ErrcatCommand {
    static let name = "diff"

    static let help = """
        USAGE: errcat diff [--json] [--allow CODE[,CODE...]]... OLD.json NEW.json

        Compares two versions of a catalog and lists every change, one per line, sorted by code,
        each classed BREAKING (a program built against OLD may no longer compile or may behave
        differently), COMPATIBLE, or ALLOWED (breaking, and named by --allow), with what
        changed (old → new) and why; then a summary line ("no changes" when there are none).

        Breaking: a code removed; a code moved to another tier or module; an entry renamed (its
        generated case or constant changes); a behaviour flag added or removed (retryable,
        reauthenticate, fatal, and the application flags app4 ... app7); the success code
        changed; a module removed, renamed, moved to another position (its C module id) or
        owning fewer codes or string namespaces; the catalog renamed (errcore_<name>_table()
        changes); an entry's string code changed or removed; a shape changed or removed.
        Compatible: a code added; a module added at the end; a module owning more codes or
        namespaces; a string code or a shape added; a message or title changed, or a
        translation added or removed; showUser added or removed.

        Both files are read and checked as 'errcat check' does; their problems are reported as
        FILE:LINE:COLUMN: error: MESSAGE. A file may be '-' (standard input) or a /dev/fd path,
        so 'errcat diff <(git show REV:catalog.json) catalog.json' works.

        OPTIONS:
          --allow VALUE   mark intended breaking changes: VALUE is a code (its changes), module:NAME
                          (the module's own changes: removed, renamed, id, ranges, namespaces),
                          shape:NAME (a shape's) or catalog (the catalog's name); several may be
                          given separated by commas, and the option
                          may be repeated. A VALUE that names no breaking change is an error.
          --json          print one JSON object (schema "errcat-diff/1") instead of lines
          -h, --help      show this help

        EXIT STATUS: 0 only compatible or allowed changes (or none); 1 breaking changes that no
        --allow names; 2 usage error, an --allow that names no breaking change, a catalog that
        cannot be read or has problems, or output that cannot be written.
        """

    static let options = OptionSpec.values("--allow") + OptionSpec.flags("--json")

    /// Only compatible changes, or breaking ones every one of which an `--allow` names.
    static let compatible: Int32 = 0
    /// Breaking changes that no `--allow` names.
    static let breaking: Int32 = 1
    /// Usage error, a stale `--allow`, an unreadable or invalid catalog, or a failed write.
    static let trouble: Int32 = 2

    static func run(_ run: CommandRun) throws(ExitCode) -> Int32 {
        let parsed = run.arguments
        let io = run.io
        guard parsed.positionals.count == 2 else {
            throw run.usage("give exactly two catalog files: OLD.json NEW.json")
        }
        let paths = parsed.positionals
        if paths[0] == "-" && paths[1] == "-" {
            throw run.usage("only one of the two catalogs can be read from standard input ('-')")
        }
        let allows = try allowValues(parsed.values("--allow"), run: run)
        var definitions: [CatalogDefinition] = []
        for path in paths {
            do {
                definitions.append(try checkedCatalog(path, io: io))
            } catch {
                for line in error.lines { io.printError(line) }
            }
        }
        guard definitions.count == 2 else {
            io.printError("errcat diff: cannot compare: a catalog cannot be read or has problems")
            return trouble
        }
        let changes = CatalogComparison.changes(from: definitions[0], to: definitions[1])
        let report = DiffReport(
            oldFile: paths[0], newFile: paths[1], old: definitions[0].name, new: definitions[1].name,
            changes: changes, allows: allows)
        var out = OutputBuffer(descriptor: io.output)
        if parsed.has("--json") {
            report.writeJSON(into: &out)
        } else {
            report.writeText(into: &out)
        }
        guard io.finish(&out, command: name) else { return trouble }
        for stale in report.staleAllows {
            io.printError(
                "errcat diff: --allow \(DisplayText.bare(stale)) names no breaking change; remove it (a stale allow would hide a future break)"
            )
        }
        if !report.staleAllows.isEmpty { return trouble }
        return report.breakingCount > 0 ? breaking : compatible
    }

    /// Reads a catalog file as `errcat check` does: the reader's checks, then the C core's.
    /// - Throws: `CatalogLoadError` with the lines to print (located problems, or why the file
    ///   cannot be read).
    static func checkedCatalog(_ path: String, io: ErrcatIO) throws(CatalogLoadError) -> CatalogDefinition {
        let definition = try loadCatalogDefinition(path, io: io)
        do {
            _ = try Catalog(definition)
        } catch {
            throw CatalogLoadError(lines: [
                "\(DisplayText.bare(path)): error: the C core rejects the catalog: \(error.message)"
            ])
        }
        return definition
    }

    /// The `--allow` values, split at commas and normalized (codes as decimal integers).
    /// - Throws: A usage error for a value that is not a code, `module:NAME`, `shape:NAME` or `catalog`.
    static func allowValues(_ values: [String], run: CommandRun) throws(ExitCode) -> [String] {
        var result: [String] = []
        for value in values {
            for part in value.split(separator: ",", omittingEmptySubsequences: false) {
                let item = part.trimmingSpaces
                if let code = parseInt64(item) {
                    result.append(String(code))
                } else if item == "catalog" || (item.hasPrefix("module:") && item.count > "module:".count)
                    || (item.hasPrefix("shape:") && item.count > "shape:".count)
                {
                    result.append(item)
                } else {
                    throw run.usage(
                        "--allow needs a code, module:NAME, shape:NAME or catalog (comma-separated); not \(DisplayText.singleQuoted(item))"
                    )
                }
            }
        }
        return result
    }
}

extension Substring {
    /// The text without the ASCII spaces around it.
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
