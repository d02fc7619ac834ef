// `errcat check CATALOG.json...`: validate catalog files, reporting every problem.

import SwiftErr

enum CheckCommand {
    static let help = """
        USAGE: errcat check [--quiet] CATALOG.json...

        Validates each catalog file and reports every problem, one per line, as
        FILE:LINE:COLUMN: error: MESSAGE (with the other place involved, if any):
        invalid JSON, unknown or missing keys, wrong types, codes that are not 64-bit
        integers, empty or non-identifier names, duplicate names, unknown flags,
        duplicate codes (within or across tiers, naming both entries), empty and
        overlapping ranges, module codes outside their module's ranges, base or success
        codes inside a module's range. A file without problems is then built with the
        C core as a final cross-check.

        OPTIONS:
          --quiet      print nothing for a valid file
          -h, --help   show this help

        EXIT STATUS: 0 every file is valid; 1 a file has problems or cannot be read;
        2 usage error.
        """

    static let options = [OptionSpec(names: ["--quiet", "-q"], takesValue: false)]

    static func main(_ arguments: [String], io: ErrcatIO) -> Int32 {
        let parsed: ParsedArguments
        switch Errcat.parse(arguments, command: "check", help: help, options: options, io: io) {
        case .success(let value): parsed = value
        case .failure(let exit): return exit.status
        }
        guard !parsed.positionals.isEmpty else {
            return Errcat.usageError(io: io, "give at least one CATALOG.json", command: "check", help: help).status
        }
        var status = ExitStatus.success
        var out = OutputBuffer(descriptor: io.output)
        for path in parsed.positionals {
            let bytes: [UInt8]
            do {
                bytes = try readWholeFile(path, standardInput: io.input)
            } catch {
                out.write("\(error.path): error: cannot read: \(error.reason)\n")
                status = ExitStatus.problems
                continue
            }
            let definition: CatalogDefinition
            do {
                definition = try CatalogDefinition(json: bytes)
            } catch {
                for problem in error.problems {
                    out.write("\(path):\(problem.location): error: \(problem.message)")
                    if let related = problem.related {
                        out.write(" (see \(path):\(related))")
                    }
                    out.endLine()
                }
                out.write("\(path): \(error.problems.count) problem\(error.problems.count == 1 ? "" : "s")\n")
                status = ExitStatus.problems
                continue
            }
            do {
                _ = try Catalog(definition)
            } catch {
                out.write("\(path): error: the C core rejects the catalog: \(error.message)\n")
                status = ExitStatus.problems
                continue
            }
            if !parsed.has("--quiet") {
                let moduleCodes = definition.modules.reduce(0) { $0 + $1.codes.count }
                let ranges = definition.modules.reduce(0) { $0 + $1.ranges.count }
                out.write(
                    "\(path): ok: catalog \"\(definition.name)\", \(1 + definition.base.count + moduleCodes) entries (success, \(definition.base.count) base, \(moduleCodes) in modules), \(definition.modules.count) modules, \(ranges) ranges\n"
                )
            }
        }
        out.flush()
        return status
    }
}
