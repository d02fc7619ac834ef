// `errcat migrate CATALOG.json`: rewrite a catalog file of an earlier format in the current one.

import SwiftErr
import SwiftErrCatalogFile

enum MigrateCommand: ErrcatCommand {
    static let name = "migrate"

    static let help = """
        USAGE: errcat migrate CATALOG.json [--output FILE]

        Rewrites a catalog file of format swifterr-catalog/1 or /2 in format swifterr-catalog/3,
        in place or to FILE, laid out as errcat writes catalogs (import po does the same). The
        catalog is the same: every code, name, flag, message and title is kept, and a /1 file's
        languages become the "languages" list (English, then Simplified Chinese when it has any
        such text). Format 3 only adds what a catalog may declare: its "shapes", the string
        "namespaces" a module owns, an entry's "string" code and its "namespace".
        The file is checked first, as errcat check does: a file with problems is reported and
        nothing is written. A file already in format 3 is left as it is.
        Prints "FILE: migrated from FORMAT to swifterr-catalog/3" on standard output.

        OPTIONS:
          --output FILE   write the migrated catalog to FILE instead of CATALOG.json
          -h, --help      show this help

        EXIT STATUS: 0 written, or already in format 3; 1 the catalog has problems, or a file
        cannot be read or written; 2 usage error.
        """

    static let options = OptionSpec.values("--output -o")

    static func run(_ run: CommandRun) throws(ExitCode) -> Int32 {
        let parsed = run.arguments
        let io = run.io
        guard parsed.positionals.count == 1 else { throw run.usage("give one CATALOG.json") }
        let path = parsed.positionals[0]
        let shownPath = DisplayText.bare(path)
        let bytes: [UInt8]
        let definition: CatalogDefinition
        do {
            let loaded = try loadCatalogFile(path, io: io)
            (bytes, definition) = (loaded.bytes, loaded.file.definition)
        } catch {
            for line in error.lines { io.printError(line) }
            return ExitStatus.problems
        }
        do {
            _ = try Catalog(definition)
        } catch {
            io.printError("\(shownPath): error: the C core rejects the catalog: \(error.message); nothing written")
            return ExitStatus.problems
        }
        let format = fileFormat(of: bytes)
        var out = OutputBuffer(descriptor: io.output)
        if format == CatalogDefinition.fileFormat {
            out.write("\(shownPath): already in \(CatalogDefinition.fileFormat); nothing written\n")
            return io.finish(&out, command: name) ? ExitStatus.success : ExitStatus.problems
        }
        let target = parsed.value("--output") ?? path
        var written = WrittenFiles()
        do {
            try written.write(
                target, Array(CatalogJSONWriter.text(definition, flags: WrittenFlags(catalogFile: bytes)).utf8))
        } catch {
            io.reportWriteFailure(command: name, what: DisplayText.bare(error.path), reason: error.reason)
            return ExitStatus.problems
        }
        out.write("\(DisplayText.bare(target)): migrated from \(format) to \(CatalogDefinition.fileFormat)\n")
        return io.finish(&out, command: name) ? ExitStatus.success : ExitStatus.problems
    }

    /// The `"format"` of a catalog file that reads without problems.
    private static func fileFormat(of bytes: [UInt8]) -> String {
        guard let root = try? bytes.withUnsafeBytes({ raw in try JSONTreeParser.parse(raw) }),
            case .object(let members) = root.value,
            let format = members.first(where: { $0.key == "format" }), case .string(let text) = format.value.value
        else { return CatalogDefinition.fileFormat }
        return text
    }
}
