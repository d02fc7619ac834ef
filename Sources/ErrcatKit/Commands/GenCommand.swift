// `errcat gen c|swift|xcstrings CATALOG.json`, `errcat gen po LANG CATALOG.json`: generated C table
// source or Swift module enums, or the catalog's texts for translators.

import SwiftErr
import SwiftErrCatalogFile

enum GenCommand: ErrcatCommand {
    static let name = "gen"

    static let help = """
        USAGE: errcat gen c CATALOG.json [--output FILE [--header FILE]] [--check]
               errcat gen swift CATALOG.json [--module NAME] [--output FILE | --output-dir DIR] [--check]
               errcat gen swift --installing CATALOG.json [--output FILE] [--check]
               errcat gen xcstrings CATALOG.json [--output FILE] [--check]
               errcat gen po LANG CATALOG.json [--output FILE] [--check]

        c      prints the C11 source of the catalog as static const tables, with the function
               errcore_<name>_table() (catalog "default":
               Sources/CErrDefaultCatalog/default_catalog.c), and for a catalog with string
               codes or namespaces its string table, errcore_<name>_strings(), for
               errcore_classify_string().
        swift  prints the base tier as BaseCode constants and each module's ModuleCode enum
               (type <Module>Code; the default catalog's are
               Sources/SwiftErrDefaultCatalog/Generated/*.swift).
        xcstrings  prints an Xcode String Catalog: every message and module title in every
               language of the catalog, keyed swifterr.code.<code> and
               swifterr.module.<name>.title, the catalog's default language as sourceLanguage.
        po     prints a gettext .po file for the language LANG (a BCP 47 tag): per message and
               module title, msgctxt "code <code>" or "module <name> title", msgid the text in
               the default language, msgstr the translation or "" (errcat import po reads it
               back).

        OPTIONS:
          --output FILE      write to FILE instead of standard output
          --header FILE      (c) also write a header declaring errcore_<name>_table() (and
                             errcore_<name>_strings()) to FILE
          --output-dir DIR   (swift) write one file each: DIR/BaseCode+<Catalog>.swift and
                             DIR/<Module>Code.swift
          --module NAME      (swift) only this module's enum
          --installing       (swift) one file: the base tier, the catalog itself as Swift data
                             (type <Catalog>Catalog, with install()) and the module enums, which
                             install the catalog as the process-wide catalog on first use; what
                             the SwiftErrCatalogPlugin generates at build time
          --check            write nothing: compare with --output / --output-dir (and --header)
                             and exit 1 when a file differs or is missing (drift check)
          -h, --help         show this help

        Every name and message is written as an escaped string literal; comments hold only text
        that cannot end them. A file is never written twice in one run, nor over the catalog.
        Problems and warnings are printed on standard error as errcat check prints them
        (FILE:LINE:COLUMN: error: ... (see FILE:LINE:COLUMN); FILE:LINE:COLUMN: warning: ...),
        so a build through the SwiftErrCatalogPlugin shows them at their place.

        EXIT STATUS: 0 generated (or up to date with --check); 1 the catalog is invalid, a
        file or standard output cannot be written, or --check found a difference; 2 usage error.
        """

    static let options =
        OptionSpec.values("--output -o", "--output-dir", "--module", "--header")
        + OptionSpec.flags("--check") + OptionSpec.flags("--installing")

    static func run(_ run: CommandRun) throws(ExitCode) -> Int32 {
        let parsed = run.arguments
        let io = run.io
        let language = parsed.positionals.first ?? ""
        let wanted = language == "po" ? 3 : 2
        guard parsed.positionals.count == wanted else {
            throw run.usage(
                parsed.positionals.isEmpty
                    ? "give what to generate (c, swift, xcstrings or po) and a CATALOG.json"
                    : language == "po"
                        ? "give exactly po, a language tag and one CATALOG.json"
                        : "give exactly what to generate (c, swift, xcstrings or po LANG) and one CATALOG.json")
        }
        let path = parsed.positionals[wanted - 1]
        guard ["c", "swift", "xcstrings", "po"].contains(language) else {
            throw run.usage("unknown output '\(language)' (use c, swift, xcstrings or po)")
        }
        var poLanguage: Language? = nil
        if language == "po" {
            guard let tag = Language(tag: parsed.positionals[1]) else {
                throw run.usage(
                    "malformed language tag '\(parsed.positionals[1])' (use a BCP 47 tag such as zh-Hant or hi)")
            }
            poLanguage = tag
        }
        if language == "xcstrings" || language == "po" {
            if parsed.value("--module") != nil || parsed.value("--output-dir") != nil || parsed.value("--header") != nil
                || parsed.has("--installing")
            {
                throw run.usage("--module, --output-dir, --header and --installing apply to gen c or gen swift only")
            }
        }
        if language == "c" && (parsed.value("--module") != nil || parsed.value("--output-dir") != nil) {
            throw run.usage("--module and --output-dir apply to gen swift only")
        }
        if language == "c" && parsed.has("--installing") {
            throw run.usage("--installing applies to gen swift only")
        }
        if language == "swift" && parsed.value("--header") != nil {
            throw run.usage("--header applies to gen c only")
        }
        if parsed.value("--header") != nil && parsed.value("--output") == nil {
            throw run.usage("--header needs --output FILE for the source")
        }
        if parsed.has("--installing") && (parsed.value("--module") != nil || parsed.value("--output-dir") != nil) {
            throw run.usage(
                "--installing writes one file with every module: give --output FILE, not --module or --output-dir")
        }
        if parsed.value("--output") != nil && parsed.value("--output-dir") != nil {
            throw run.usage("give --output or --output-dir, not both")
        }
        if parsed.has("--check") && parsed.value("--output") == nil && parsed.value("--output-dir") == nil {
            throw run.usage("--check needs --output FILE or --output-dir DIR to compare with")
        }
        let file: LocatedCatalogFile
        do {
            file = try loadCatalogFile(path, io: io).file
        } catch {
            for line in error.lines { io.printError(line) }
            return ExitStatus.problems
        }
        let definition = file.definition
        let shownPath = DisplayText.bare(path)
        // Warnings as `errcat check` prints them: through the SwiftErrCatalogPlugin they appear in
        // the build's output at their place.
        for line in warningLines(file.missingTranslations, in: shownPath, limit: CheckCommand.defaultMaxProblems) {
            io.printError(line)
        }
        // Generate only from a catalog the C core accepts too.
        let table: Catalog
        do {
            table = try Catalog(definition)
        } catch {
            io.printError("\(shownPath): error: \(error.message)")
            return ExitStatus.problems
        }

        var files: [(path: String?, text: String)] = []
        if language == "xcstrings" {
            files.append((parsed.value("--output"), XCStringsWriter.text(definition)))
        } else if let poLanguage {
            files.append((parsed.value("--output"), POFile.text(definition, language: poLanguage)))
        } else if language == "c" {
            let generator = CSourceGenerator(definition: definition, table: table, sourcePath: path)
            let source: String
            do {
                source = try generator.generateChecked()
            } catch {
                io.printError(
                    "errcat gen c: \(shownPath): internal error: the generated C fails the source audit: \(error)")
                return ExitStatus.problems
            }
            files.append((parsed.value("--output"), source))
            if let header = parsed.value("--header") {
                do {
                    files.append((header, try generator.generateHeaderChecked()))
                } catch {
                    io.printError(
                        "errcat gen c: \(shownPath): internal error: the generated header fails the source audit: \(error)"
                    )
                    return ExitStatus.problems
                }
            }
        } else if parsed.has("--installing") {
            do {
                let source = try SwiftSourceGenerator(definition: definition, sourcePath: path)
                    .generateInstallingChecked()
                files.append((parsed.value("--output"), source))
            } catch {
                io.printError("errcat gen swift: \(shownPath): \(error.message)")
                return ExitStatus.problems
            }
        } else {
            let generator = SwiftSourceGenerator(definition: definition, sourcePath: path)
            var generated: [(fileName: String, source: String)]
            do {
                generated = try generator.generateFilesChecked()
            } catch {
                io.printError("errcat gen swift: \(shownPath): \(error.message)")
                return ExitStatus.problems
            }
            if let module = parsed.value("--module") {
                guard let id = definition.moduleID(named: module) else {
                    io.printError("errcat gen swift: \(shownPath) has no module named \(DisplayText.quoted(module))")
                    return ExitStatus.problems
                }
                generated = [generated[Int(id)]]
            }
            if let directory = parsed.value("--output-dir") {
                for file in generated { files.append(("\(directory)/\(file.fileName)", file.source)) }
            } else {
                files.append((parsed.value("--output"), generated.map(\.source).joined(separator: "\n")))
            }
        }
        // Two outputs whose names differ only in letter case are one file on a case-insensitive
        // disk: refuse before writing anything (the reader rejects such catalogs already).
        var seen: [String: String] = [:]
        for case let target? in files.map(\.path) {
            if let earlier = seen.updateValue(target, forKey: target.lowercased()) {
                io.printError(
                    "errcat gen: \(DisplayText.bare(target)) and \(DisplayText.bare(earlier)) would be the same file on a case-insensitive disk; nothing written"
                )
                return ExitStatus.problems
            }
        }

        var status = ExitStatus.success
        var written = WrittenFiles()
        written.protect(path, as: "the catalog being read, \(shownPath)")
        var out = OutputBuffer(descriptor: io.output)
        for file in files {
            guard let target = file.path else {
                out.write(file.text)
                continue
            }
            if parsed.has("--check") {
                let existing = try? readWholeFile(target, standardInput: io.input)
                if existing != Array(file.text.utf8) {
                    io.printError(
                        "errcat gen: \(DisplayText.bare(target)) is \(existing == nil ? "missing" : "out of date"); regenerate it from \(shownPath)"
                    )
                    status = ExitStatus.problems
                }
                continue
            }
            do {
                try written.write(target, Array(file.text.utf8))
            } catch {
                io.reportWriteFailure(command: "gen", what: DisplayText.bare(error.path), reason: error.reason)
                return ExitStatus.problems
            }
        }
        if !io.finish(&out, command: "gen") { return ExitStatus.problems }
        return status
    }
}
