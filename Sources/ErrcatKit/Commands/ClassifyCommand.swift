// `errcat classify [FILE|-]`: classify a stream of codes or JSON envelopes.

import SwiftErr
import SwiftErrCatalogFile

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

enum ClassifyCommand: ErrcatCommand {
    static let name = "classify"

    static let help = """
        USAGE: errcat classify [options] [FILE|-]

        Reads lines from FILE, or standard input when FILE is '-' or missing, and classifies
        each one. A line is a plain integer code or a JSON response envelope such as
        {"ret":11001,"msg":"...","data":null}. Input streams in constant memory; codes are
        classified in blocks through the C batch path.

        With a catalog that declares JSON shapes (format swifterr-catalog/3), each line is a
        response body read in those shapes instead: the one shape that finds a code in the line
        reads it (an integer, or a string code in its namespace); a line in which two shapes find
        a code is invalid ("ambiguous"), never guessed; --shape NAME reads every line in one
        shape. A line carries no HTTP status: a shape whose failure is told by status counts a
        line with a code as a failure. With --each, a row also names the shape and the
        (namespace, string) pair a string code was looked up by; a string code the catalog
        does not list has no integer code (JSON "code": null) and the summary counts it by tier
        and module, as untracked.

        By default prints a summary: lines, valid and invalid lines (by reason), counts per
        tier and per module, and the most frequent codes with names and messages.
        Invalid lines are counted, and the first ones are reported on stderr with their line
        number and reason. Throughput (lines/s) is printed on stderr at the end.

        OPTIONS:
          --format FORMAT      auto (default: '{' starts an envelope, else an integer),
                               codes (integers only) or jsonl (envelopes only)
          --keys PRESET        envelope keys: ret (ret/msg/data, default) or code (code/message/data)
          --code-key KEY       the member holding the code (overrides --keys)
          --message-key KEY    the member holding the message (must be a string or null)
          --data-key KEY       the member holding the payload
          --shape NAME         read every line in the catalog's JSON shape NAME
          --each               one result per line instead of the summary
          --json               JSON output: with --each one explain object plus "line" per
                               line ({"line":N,"error":"..."} for an invalid line); otherwise
                               one summary object (schema, catalog, total, valid, invalid,
                               invalidReasons, tiers, modules, unrecognised, top, untracked,
                               codes) that 'errcat merge' adds to others
          --lang LANG          message language, a BCP 47 tag: en (default), zh-Hans, zh-Hant, hi, ...
          --catalog FILE       use this catalog file instead of the built-in catalog
          --top N              codes listed in the summary (default 10)
          --max-errors N       invalid lines reported on stderr (default 10; 0 for none)
          --max-line-bytes N   longer lines are invalid and skipped (default 16M)
          --strict             exit with status 1 when any line is invalid
          --progress           always show the progress line on stderr
          --no-progress        never show it (default: shown when stderr and the input or
                               output are terminals, once a million lines are read)
          --quiet              no throughput line
          -j, --jobs N         classify with N threads (default: every processor); the output
                               is the same as with one, in input order
          -h, --help           show this help

        EXIT STATUS: 0 the input was read to its end (invalid lines are reported, not fatal);
        1 the input or catalog cannot be read, an output write failed (reading stops at the
        first failed write, e.g. when the reader of a pipe is gone), or --strict and some line
        was invalid; 2 usage error.
        """

    // --chunk-bytes is not in the help: the bytes per chunk, so that tests can cut small inputs
    // into many chunks.
    static let options =
        OptionSpec.values(
            "--format", "--keys", "--code-key", "--message-key", "--data-key", "--shape", "--lang", "--catalog",
            "--top",
            "--max-errors", "--max-line-bytes", "--jobs -j", "--chunk-bytes")
        + OptionSpec.flags("--each", "--json", "--strict", "--progress", "--no-progress", "--quiet")

    static func run(_ run: CommandRun) throws(ExitCode) -> Int32 {
        let parsed = run.arguments
        let io = run.io
        guard parsed.positionals.count <= 1 else { throw run.usage("give at most one FILE") }
        guard let format = LineFormat(rawValue: parsed.value("--format") ?? "auto") else {
            throw run.usage("unknown format '\(parsed.value("--format") ?? "")' (use auto, codes or jsonl)")
        }
        var keys: EnvelopeKeys
        switch parsed.value("--keys") ?? "ret" {
        case "ret": keys = .default
        case "code": keys = .codeMessage
        default: throw run.usage("unknown key preset '\(parsed.value("--keys") ?? "")' (use ret or code)")
        }
        if let key = parsed.value("--code-key") { keys.code = key }
        if let key = parsed.value("--message-key") { keys.message = key }
        if let key = parsed.value("--data-key") { keys.data = key }
        guard keys.code != keys.message, keys.code != keys.data, keys.message != keys.data else {
            throw run.usage("the code, message and data keys must differ (\(keys.code), \(keys.message), \(keys.data))")
        }
        let language = try run.language()
        var settings = ClassifySettings(parser: LineParser(format: format, keys: keys))
        settings.each = parsed.has("--each")
        settings.json = parsed.has("--json")
        let top = try run.count("--top") ?? 10
        settings.maxErrorsShown = try run.count("--max-errors") ?? settings.maxErrorsShown
        if let bytes = try run.count("--max-line-bytes") {
            guard bytes > 0 else { throw run.usage("--max-line-bytes must be at least 1") }
            settings.maxLineLength = bytes
        }
        settings.jobs = onlineProcessors()
        if let jobs = try run.count("--jobs") {
            guard jobs >= 1 && jobs <= 256 else { throw run.usage("--jobs must be from 1 to 256") }
            settings.jobs = jobs
        }
        if let bytes = try run.count("--chunk-bytes") {
            guard bytes >= 16 else { throw run.usage("--chunk-bytes must be at least 16") }
            settings.chunkSize = bytes
        }
        if parsed.has("--progress") && parsed.has("--no-progress") {
            throw run.usage("--progress and --no-progress contradict each other")
        }
        settings.progress =
            parsed.has("--progress")
            || (!parsed.has("--no-progress") && isTerminal(io.error) && (isTerminal(io.input) || isTerminal(io.output)))

        let table = try run.catalog()
        let shapeName = parsed.value("--shape")
        if format != .codes, let reader = ShapeLineReader(catalog: table, only: shapeName) {
            let envelopeOptions = ["--keys", "--code-key", "--message-key", "--data-key"].filter {
                parsed.value($0) != nil
            }
            guard envelopeOptions.isEmpty else {
                throw run.usage(
                    "\(envelopeOptions.joined(separator: ", ")) cannot be used with a catalog's shapes (the shapes say where the code is)"
                )
            }
            settings.shapes = reader
        } else if let shapeName {
            let names = table.shapes.filter { $0.kind == .json }.map { DisplayText.quoted($0.name) }
            throw run.usage(
                "--shape \(DisplayText.quoted(shapeName)) names no JSON shape of the catalog (\(names.isEmpty ? "it declares none" : "it has " + names.joined(separator: ", ")))"
            )
        }
        let path = parsed.positionals.first ?? "-"
        let descriptor: Int32
        do {
            descriptor = try openInput(path, standardInput: io.input)
        } catch {
            io.printError("errcat classify: cannot open \(error.description)")
            return ExitStatus.problems
        }
        defer { if descriptor != io.input { close(descriptor) } }

        let describer = CodeDescriber(table: table, language: language)
        let run = ClassifyRun(table: table, describer: describer, settings: settings, io: io)
        var totals = RunTotals(table: table, settings: settings, io: io)
        let started = monotonicSeconds()
        let readError = run.consume(descriptor: descriptor, into: &totals)
        let elapsed = monotonicSeconds() - started
        if let readError {
            totals.out.flush()
            io.printError(
                "errcat classify: cannot read \(FileError(path: path, errno: readError).description) (after line \(totals.lines))"
            )
            return ExitStatus.problems
        }
        if !settings.each && !totals.writeFailed {
            let report = SummaryReport(
                tally: totals.tally, table: table, describer: describer, top: top, ordered: settings.json)
            if settings.json {
                report.writeJSON(into: &totals.out)
            } else {
                report.writeText(into: &totals.out)
            }
        }
        totals.out.flush()
        if let failure = totals.out.failure {
            io.printError("errcat classify: cannot write output: \(String(cString: strerror(failure)))")
            return ExitStatus.problems
        }
        let tally = totals.tally
        if tally.invalid > 0 && settings.maxErrorsShown == 0 {
            io.printError(
                "errcat classify: \(tally.invalid) invalid line\(tally.invalid == 1 ? "" : "s") (none shown: --max-errors 0)"
            )
        } else if tally.invalid > UInt64(settings.maxErrorsShown) {
            io.printError("errcat classify: \(tally.invalid) invalid lines (first \(settings.maxErrorsShown) shown)")
        } else if tally.invalid > 0 {
            io.printError("errcat classify: \(tally.invalid) invalid line\(tally.invalid == 1 ? "" : "s")")
        }
        if !parsed.has("--quiet") {
            let rate = Double(tally.lines) / max(elapsed, 1e-9)
            let seconds = (elapsed * 1000).rounded() / 1000
            io.printError("errcat classify: \(tally.lines) lines in \(seconds) s, \(Int(rate.rounded())) lines/s")
        }
        if parsed.has("--strict") && tally.invalid > 0 {
            return ExitStatus.problems
        }
        return ExitStatus.success
    }
}

/// The processors online (at least 1): the default of `--jobs`.
func onlineProcessors() -> Int {
    max(1, min(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 256))
}
