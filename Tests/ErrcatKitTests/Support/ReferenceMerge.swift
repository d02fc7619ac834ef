// The reference for `errcat merge`'s differential tests: the merge as it reads every summary
// with `readWholeFile` and `SummaryFile.read` (a tree of the whole document, every value
// checked) and adds codes in a Dictionary. Its output and errors are what `errcat merge` must
// print, byte for byte, for any input.

import SwiftErr

@testable import ErrcatKit

enum ReferenceMerge: ErrcatCommand {
    static let name = MergeCommand.name
    static let help = MergeCommand.help
    static let options = MergeCommand.options

    /// Runs the reference merge as `errcat ARGUMENTS` would run `errcat merge`; `arguments`
    /// start with "merge".
    static func entry(_ arguments: [String], _ io: ErrcatIO) -> Int32 {
        precondition(arguments.first == "merge")
        return main(Array(arguments.dropFirst()), io: io)
    }

    static func run(_ run: CommandRun) throws(ExitCode) -> Int32 {
        let parsed = run.arguments
        let io = run.io
        guard !parsed.positionals.isEmpty else { throw run.usage("give one or more summary files") }
        let language = try run.language()
        let top = try run.count("--top") ?? 10
        let table = try run.catalog()
        let identity = table.identity
        var merged = SummaryData(moduleCount: table.moduleCount)
        var mergedCodes: [Int64: UInt64] = [:]
        for path in parsed.positionals {
            let bytes: [UInt8]
            do {
                bytes = try readWholeFile(path, standardInput: io.input)
            } catch {
                io.printError("errcat merge: cannot read \(error.description)")
                return ExitStatus.problems
            }
            let summary: SummaryData
            do {
                summary = try SummaryFile.read(bytes, table: table, identity: identity)
            } catch {
                io.printError("errcat merge: \(path):\(error.location(in: bytes)): \(error.message)")
                return ExitStatus.problems
            }
            guard merged.add(summary) else {
                io.printError("errcat merge: \(path): the counts overflow 64 bits")
                return ExitStatus.problems
            }
            for (code, count) in summary.codes {
                let (sum, overflow) = mergedCodes[code, default: 0].addingReportingOverflow(count)
                guard !overflow else {
                    io.printError("errcat merge: \(path): the counts overflow 64 bits")
                    return ExitStatus.problems
                }
                mergedCodes[code] = sum
            }
        }
        merged.codes = mergedCodes.map { (code: $0.key, count: $0.value) }.sorted { $0.code < $1.code }
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
