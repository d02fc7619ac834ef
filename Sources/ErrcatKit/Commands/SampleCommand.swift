// `errcat sample N [--seed S]`: deterministic, realistic sample input for demos and benchmarks.

import SwiftErr
import SwiftErrCatalogFile

enum SampleCommand: ErrcatCommand {
    static let name = "sample"

    static let help = """
        USAGE: errcat sample N [--seed S] [--format jsonl|codes] [--keys ret|code] [--shape NAME]
                               [--lang TAG] [--catalog FILE]

        Writes N lines of JSON response envelopes such as {"ret":11001,"msg":"...","data":null}
        (N is 1000000 or 1_000_000, or has a suffix K, M or G meaning 2^10, 2^20 or 2^30:
        1M = 1,048,576): on average per 1000 lines 700 success,
        100 base-tier codes, 120 module codes, 40 unrecognised codes inside a module's range,
        35 unknown codes and 5 invalid lines (string or fractional codes, a missing code,
        truncated JSON, an HTML error page, an empty line). The same seed gives the same output.

        A catalog that declares JSON shapes is sampled in its first (or --shape NAME): bodies such
        as {"error":{"code":"card_declined",...}} with its string codes (or integer codes), the
        same mix, a success body without a code, unlisted strings in the namespaces modules own,
        and lines the shape cannot read.

        OPTIONS:
          --seed S          the PRNG seed, an unsigned 64-bit integer (default 1)
          --format FORMAT   jsonl (default) or codes (one integer per line; invalid lines
                            become "n/a" or stay empty)
          --keys PRESET     envelope keys: ret (ret/msg/data, default) or code (code/message/data)
          --shape NAME      the catalog's JSON shape to write lines in (default: its first)
          --lang LANG       message language, a BCP 47 tag: en (default), zh-Hans, zh-Hant, hi, ...
          --catalog FILE    draw codes from this catalog instead of the built-in one
          -h, --help        show this help

        EXIT STATUS: 0 written; 1 the catalog is invalid, its shape cannot be written, or the
        output cannot be written; 2 usage error.
        """

    static let options = OptionSpec.values("--seed", "--format", "--keys", "--shape", "--lang", "--catalog")

    static func run(_ run: CommandRun) throws(ExitCode) -> Int32 {
        let parsed = run.arguments
        let io = run.io
        guard parsed.positionals.count == 1 else { throw run.usage("give exactly one N (the number of lines)") }
        guard let count = parseCount(parsed.positionals[0]) else {
            throw run.usage("N must be \(countRule); not '\(parsed.positionals[0])'")
        }
        var seed: UInt64 = 1
        if let text = parsed.value("--seed") {
            guard let value = UInt64(text) else {
                throw run.usage("--seed needs an unsigned 64-bit integer, not '\(text)'")
            }
            seed = value
        }
        let codesOnly: Bool
        switch parsed.value("--format") ?? "jsonl" {
        case "jsonl": codesOnly = false
        case "codes": codesOnly = true
        default: throw run.usage("unknown format '\(parsed.value("--format") ?? "")' (use jsonl or codes)")
        }
        let keys: EnvelopeKeys
        switch parsed.value("--keys") ?? "ret" {
        case "ret": keys = .default
        case "code": keys = .codeMessage
        default: throw run.usage("unknown key preset '\(parsed.value("--keys") ?? "")' (use ret or code)")
        }
        let language = try run.language()
        let table = try run.catalog()
        var writer = SampleWriter(table: table, codesOnly: codesOnly, language: language, keys: keys)
        let jsonShapes = table.shapes.filter { $0.kind == .json }
        let shapeName = parsed.value("--shape")
        if let shapeName, !jsonShapes.contains(where: { $0.name == shapeName }) {
            let names = jsonShapes.map { DisplayText.quoted($0.name) }
            throw run.usage(
                "--shape \(DisplayText.quoted(shapeName)) names no JSON shape of the catalog (\(names.isEmpty ? "it declares none" : "it has " + names.joined(separator: ", ")))"
            )
        }
        if !codesOnly, let shape = jsonShapes.first(where: { shapeName == nil || $0.name == shapeName }) {
            guard parsed.value("--keys") == nil else {
                throw run.usage("--keys cannot be used with a catalog's shapes (the shape says where the code is)")
            }
            do {
                writer.shapeLines = try ShapeSampleLines(catalog: table, shape: shape, language: language)
            } catch {
                io.printError("errcat sample: \(DisplayText.sanitized(error.message))")
                return ExitStatus.problems
            }
        } else if shapeName != nil {
            throw run.usage("--shape cannot be used with --format codes")
        }
        var random = SplitMix64(seed: seed)
        var out = OutputBuffer(descriptor: io.output)
        var written: UInt64 = 0
        while written < count {
            writer.writeLine(&random, into: &out)
            written += 1
            if out.failure != nil { break }
        }
        if !io.finish(&out, command: "sample") { return ExitStatus.problems }
        return ExitStatus.success
    }
}
