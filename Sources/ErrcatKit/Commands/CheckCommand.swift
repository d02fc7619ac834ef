// `errcat check CATALOG.json...`: validate catalog files, reporting their problems.

import SwiftErr
import SwiftErrCatalogFile

enum CheckCommand: ErrcatCommand {
    static let name = "check"

    static let help = """
        USAGE: errcat check [--quiet] [--max-problems N] CATALOG.json...

        Validates each catalog file and reports its problems on standard error, one per line,
        sorted by place, as FILE:LINE:COLUMN: error: MESSAGE (with the other place involved, if
        any): invalid JSON, unknown or missing keys, wrong types, codes that are not 64-bit
        integers, empty or non-identifier names, duplicate names, unknown flags, duplicate
        codes (within or across tiers, naming both entries), empty and overlapping ranges,
        module codes outside their module's ranges, base or success codes inside a module's
        range, and names the generated C or Swift cannot use (a catalog name that is not an
        identifier, a case named like a member of the generated enum such as code or Self, a
        module named module or base, two modules whose Swift files differ only in letter case);
        in a swifterr-catalog/3 file, problems of its shapes, namespaces and string codes: two
        shapes no response can tell apart, a malformed location, a namespace two modules own, a
        string code in a namespace its module does not own, a string code twice in one namespace
        (docs/errcat.md lists them all). Files of formats /1 and /2 are read as they were.
        Text quoted from the file is escaped: control and invisible characters appear as \\u{...}.
        A file without problems is then built with the C core as a final cross-check, and
        "FILE: ok: ..." is printed on standard output. Language problems are errors too: a
        malformed BCP 47 tag, a tag listed or used twice in one object (ignoring case), a text
        in a language the catalog's "languages" does not list, a text missing in the default
        language. A text missing in another language is a warning, not a problem (lookups fall
        back along the language's chain, then to the default language): FILE:LINE:COLUMN: warning: code C
        (NAME) has no "TAG" message, or module "NAME" has no "TAG" title, at the entry or module,
        on standard error; warnings do not change the exit status.

        OPTIONS:
          --max-problems N   list at most N problems of a file (default 100), then how many
                             more there are (N may have a suffix K, M or G: 2^10, 2^20, 2^30);
                             the same limit applies to a file's warnings
          --quiet            print nothing for a valid file
          -h, --help         show this help

        EXIT STATUS: 0 every file is valid; 1 a file has problems or cannot be read, or the
        output cannot be written; 2 usage error.
        """

    static let options = OptionSpec.values("--max-problems") + OptionSpec.flags("--quiet -q")

    /// Problems listed per file unless `--max-problems` says otherwise.
    static let defaultMaxProblems = 100

    static func run(_ run: CommandRun) throws(ExitCode) -> Int32 {
        let parsed = run.arguments
        let io = run.io
        guard !parsed.positionals.isEmpty else { throw run.usage("give at least one CATALOG.json") }
        let maxProblems = try run.count("--max-problems") ?? defaultMaxProblems
        var status = ExitStatus.success
        var out = OutputBuffer(descriptor: io.output)
        var diagnostics = OutputBuffer(descriptor: io.error)
        for path in parsed.positionals {
            let shownPath = DisplayText.bare(path)
            defer {
                // Each file's lines appear together, the diagnostics first.
                diagnostics.flush()
                out.flush()
            }
            let bytes: [UInt8]
            do {
                bytes = try readWholeFile(path, standardInput: io.input)
            } catch {
                diagnostics.write("\(shownPath): error: cannot read: \(error.reason)\n")
                status = ExitStatus.problems
                continue
            }
            let file: LocatedCatalogFile
            do {
                file = try CatalogDefinition.readLocated(json: bytes, problemLimit: max(1, maxProblems))
            } catch {
                for problem in error.problems.prefix(maxProblems) {
                    diagnostics.write(diagnosticLine(problem, in: shownPath) + "\n")
                }
                let total = error.totalCount
                let listed = min(total, maxProblems)
                diagnostics.write("\(shownPath): \(total) problem\(total == 1 ? "" : "s")")
                if listed < total {
                    diagnostics.write(
                        listed == 0
                            ? " (none listed: --max-problems 0)"
                            : " (the first \(listed) listed; --max-problems N lists more)")
                }
                diagnostics.endLine()
                status = ExitStatus.problems
                continue
            }
            let definition = file.definition
            do {
                _ = try Catalog(definition)
            } catch {
                diagnostics.write("\(shownPath): error: the C core rejects the catalog: \(error.message)\n")
                status = ExitStatus.problems
                continue
            }
            for line in warningLines(file.missingTranslations, in: shownPath, limit: maxProblems) {
                diagnostics.write(line + "\n")
            }
            if !parsed.has("--quiet") {
                let moduleCodes = definition.modules.reduce(0) { $0 + $1.codes.count }
                let ranges = definition.modules.reduce(0) { $0 + $1.ranges.count }
                out.write(
                    "\(shownPath): ok: catalog \(DisplayText.quoted(definition.name)), \(1 + definition.base.count + moduleCodes) entries (success, \(definition.base.count) base, \(moduleCodes) in modules), \(definition.modules.count) modules, \(ranges) ranges\n"
                )
            }
        }
        if !io.finish(&out, command: "check") { status = ExitStatus.problems }
        if diagnostics.failure != nil { status = ExitStatus.problems }
        return status
    }
}
