// `errcat import po FILE.po CATALOG.json`: a translator's .po file written back into the catalog.

import SwiftErr
import SwiftErrCatalogFile

enum ImportCommand: ErrcatCommand {
    static let name = "import"

    static let help = """
        USAGE: errcat import po FILE.po CATALOG.json [--output FILE] [--strict]

        Reads the translations of FILE.po (as errcat gen po writes it: the language in its
        Language: header, one entry per message and module title, msgctxt "code <code>" or
        "module <name> title") into the catalog and writes the catalog back, as a
        swifterr-catalog/3 file laid out as catalog/default.json: CATALOG.json itself, or FILE
        with --output. A msgstr replaces the text in that language; an empty msgstr removes it
        (untranslated: lookups fall back); texts the file does not name are kept; a language the
        catalog does not list yet is added after its languages. Everything else in the catalog
        stays as it was, each entry's flags in the order the file lists them.

        An entry is not imported, and is reported as FILE:LINE: warning: MESSAGE, when it is
        marked fuzzy (#, fuzzy: an unchecked translation) or when its msgid is not the catalog's
        current text in the default language (a translation of an older text); the other
        entries are imported. With --strict, a warning writes nothing.

        Nothing is written when the file has a problem, each reported as FILE:LINE: error:
        MESSAGE: a line that is not .po syntax, a plural entry, a #, line inside an entry or
        with no entry after it, a missing or malformed Language: header, an entry without a
        msgctxt errcat writes, a msgctxt naming a code or module the catalog does not have, a
        msgctxt twice, a translation into the catalog's default language.

        OPTIONS:
          --output FILE   write the updated catalog to FILE instead of CATALOG.json
          --strict        a warning is an error: write nothing and exit 1
          -h, --help      show this help

        EXIT STATUS: 0 written (warnings, if any, on stderr); 1 the catalog is invalid, the .po
        file has problems (or warnings, with --strict), or a file cannot be read or written; 2
        usage error.
        """

    static let options = OptionSpec.values("--output -o") + OptionSpec.flags("--strict")

    static func run(_ run: CommandRun) throws(ExitCode) -> Int32 {
        let parsed = run.arguments
        let io = run.io
        guard parsed.positionals.count == 3, parsed.positionals[0] == "po" else {
            throw run.usage("give po, a FILE.po and a CATALOG.json")
        }
        let poPath = parsed.positionals[1]
        let catalogPath = parsed.positionals[2]
        let shownPO = DisplayText.bare(poPath)
        let catalogBytes: [UInt8]
        let definition: CatalogDefinition
        do {
            let loaded = try loadCatalogFile(catalogPath, io: io)
            (catalogBytes, definition) = (loaded.bytes, loaded.file.definition)
        } catch {
            for line in error.lines { io.printError(line) }
            return ExitStatus.problems
        }
        let bytes: [UInt8]
        do {
            bytes = try readWholeFile(poPath, standardInput: io.input)
        } catch {
            io.printError("\(shownPO): error: cannot read: \(error.reason)")
            return ExitStatus.problems
        }
        if let offset = Self.firstInvalidUTF8(bytes) {
            let line = bytes[..<offset].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            io.printError("\(shownPO):\(line): error: invalid UTF-8 at byte \(offset); nothing written")
            return ExitStatus.problems
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let imported: POFile.Imported
        do {
            let file = try POFile.parse(text)
            guard let tag = file.language, let language = Language(tag: tag) else {
                io.printError(
                    "\(shownPO):1: error: \(file.language.map { "malformed language tag \(DisplayText.quoted($0)) in the Language: header" } ?? "no Language: header (errcat gen po writes one)"); nothing written"
                )
                return ExitStatus.problems
            }
            imported = POFile.apply(file, language: language, to: definition)
        } catch {
            Self.report(error.problems, in: shownPO, io: io)
            io.printError(
                "\(shownPO): \(error.problems.count) problem\(error.problems.count == 1 ? "" : "s"); nothing written")
            return ExitStatus.problems
        }
        Self.report(imported.problems, in: shownPO, io: io)
        let errors = imported.errors.count
        let warnings = imported.warnings.count
        let warningCount = "\(warnings) warning\(warnings == 1 ? "" : "s")"
        if errors > 0 {
            io.printError(
                "\(shownPO): \(errors) problem\(errors == 1 ? "" : "s")\(warnings > 0 ? " and \(warningCount)" : ""); nothing written"
            )
            return ExitStatus.problems
        }
        if warnings > 0 && parsed.has("--strict") {
            io.printError("\(shownPO): \(warningCount), and --strict makes them errors; nothing written")
            return ExitStatus.problems
        }
        let updated = imported.definition
        do {
            _ = try Catalog(updated)
        } catch {
            io.printError(
                "\(shownPO): error: the C core rejects the updated catalog: \(error.message); nothing written")
            return ExitStatus.problems
        }
        var written = WrittenFiles()
        written.protect(poPath, as: "the .po file being read, \(shownPO)")
        let target = parsed.value("--output") ?? catalogPath
        do {
            try written.write(
                target, Array(CatalogJSONWriter.text(updated, flags: WrittenFlags(catalogFile: catalogBytes)).utf8))
        } catch {
            io.reportWriteFailure(command: "import", what: DisplayText.bare(error.path), reason: error.reason)
            return ExitStatus.problems
        }
        if warnings > 0 {
            io.printError(
                "\(shownPO): \(warningCount); \(imported.applied) entr\(imported.applied == 1 ? "y" : "ies") imported, \(imported.leftOut) not imported"
            )
        }
        return ExitStatus.success
    }

    /// Prints each problem as FILE:LINE: error|warning: MESSAGE.
    private static func report(_ problems: [POFile.Problem], in shownPO: String, io: ErrcatIO) {
        for problem in problems {
            io.printError(
                "\(shownPO):\(problem.line): \(problem.severity.rawValue): \(DisplayText.sanitized(problem.message))")
        }
    }

    /// The offset of the first byte that is not part of well-formed UTF-8, or `nil` when all are.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}
