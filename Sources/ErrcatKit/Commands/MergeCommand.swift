// `errcat merge SUMMARY.json...`: add up JSON summaries of `classify` exactly.

import SwiftErr
import SwiftErrCatalogFile

enum MergeCommand: ErrcatCommand {
    static let name = "merge"

    static let help = """
        USAGE: errcat merge [options] SUMMARY.json...

        Adds up summaries written by 'errcat classify --json' (for example one per shard of a
        log, classified on several machines) and prints the summary of all of them, as if one
        'classify' had read every shard: lines, invalid lines by reason, tiers, modules and the
        counts of every code, from which the top codes are taken again. The result is itself a
        summary that can be merged further. '-' reads a summary from standard input.

        Every summary must have the same schema ("errcat-summary/1") and come from the same
        catalog (the same "catalog" hash); give that catalog with --catalog when it is not the
        built-in one.

        OPTIONS:
          --catalog FILE   the catalog the summaries were made with (default: the built-in one)
          --lang LANG      message language of the top codes, a BCP 47 tag (default en)
          --top N          codes listed (default 10)
          --text           print the readable summary instead of JSON
          -h, --help       show this help

        EXIT STATUS: 0 merged; 1 a summary cannot be read, is malformed, has another schema or
        comes from another catalog, or the output cannot be written; 2 usage error.
        """

    static let options = OptionSpec.values("--catalog", "--lang", "--top") + OptionSpec.flags("--text")

    static func run(_ run: CommandRun) throws(ExitCode) -> Int32 {
        let parsed = run.arguments
        let io = run.io
        guard !parsed.positionals.isEmpty else { throw run.usage("give one or more summary files") }
        let language = try run.language()
        let top = try run.count("--top") ?? 10
        let table = try run.catalog()
        let identity = table.identity
        let scanner = SummaryScanner(SummaryExpectations(table: table, identity: identity))
        let input = SummaryInput()
        var merged = SummaryData(moduleCount: table.moduleCount)
        let sums = CodeSums()
        for path in parsed.positionals {
            do {
                try input.read(path, standardInput: io.input)
            } catch {
                io.printError("errcat merge: cannot read \(error.description)")
                return ExitStatus.problems
            }
            // The scanner reads errcat's own summaries; anything else is read, and any problem
            // reported, by SummaryFile.read.
            let added: Bool
            if scanner.read(input.bytes) {
                added =
                    merged.add(scanner.data)
                    && sums.add(codes: scanner.codes, counts: scanner.counts, count: scanner.pairCount)
            } else {
                let bytes = Array(input.bytes.raw)
                let summary: SummaryData
                do {
                    summary = try SummaryFile.read(bytes, table: table, identity: identity)
                } catch {
                    io.printError("errcat merge: \(path):\(error.location(in: bytes)): \(error.message)")
                    return ExitStatus.problems
                }
                added = merged.add(summary) && summary.codes.allSatisfy { sums.add($0.code, $0.count) }
            }
            guard added else {
                io.printError("errcat merge: \(path): the counts overflow 64 bits")
                return ExitStatus.problems
            }
        }
        merged.codes = sums.sorted()
        let describer = CodeDescriber(table: table, language: language)
        let report = SummaryReport(data: merged, table: table, describer: describer, top: top)
        var out = OutputBuffer(descriptor: io.output)
        if parsed.has("--text") {
            report.writeText(into: &out)
        } else {
            report.writeJSON(into: &out)
        }
        out.flush()
        if let failure = out.failure {
            io.printError("errcat merge: cannot write output: \(FileError(path: "", errno: failure).reason)")
            return ExitStatus.problems
        }
        return ExitStatus.success
    }
}
