// `errcat explain CODE...`: what each code means.

import SwiftErr
import SwiftErrCatalogFile

enum ExplainCommand: ErrcatCommand {
    static let name = "explain"

    static let help = """
        USAGE: errcat explain [--json | --present] [--lang TAG] [--catalog FILE] CODE...

        Prints, for each CODE (a decimal 64-bit integer, negative allowed), its tier
        (success, base, module or unknown), module, case name, message and flags.

        OPTIONS:
          --json            one JSON object per code, one per line, with the keys
                            code, tier, module, name, message, flags, exact
          --present         show each code as an app would present it to its user: the
                            message, where it comes from, a suggestion and the recovery
                            actions its flags call for (the library's terminal presenter)
          --lang LANG       message language, a BCP 47 tag: en (default), zh-Hans, zh-Hant, hi, ...
          --catalog FILE    use this catalog file instead of the built-in catalog
          -h, --help        show this help

        EXIT STATUS: 0 all codes explained; 1 a CODE is not a 64-bit integer (the others
        are still explained) or the catalog is invalid; 2 usage error.
        """

    static let options = OptionSpec.values("--lang", "--catalog") + OptionSpec.flags("--json", "--present")

    static func run(_ run: CommandRun) throws(ExitCode) -> Int32 {
        let parsed = run.arguments
        let io = run.io
        let language = try run.language()
        guard !parsed.positionals.isEmpty else { throw run.usage("give at least one CODE") }
        let table = try run.catalog()
        let describer = CodeDescriber(table: table, language: language)
        let json = parsed.has("--json")
        let present = parsed.has("--present")
        guard !(json && present) else {
            throw run.usage("--json and --present cannot be combined")
        }
        var out = OutputBuffer(descriptor: io.output)
        var status = ExitStatus.success
        for argument in parsed.positionals {
            guard let code = parseInt64(argument) else {
                out.flush()
                let reason: String
                switch Array(argument.utf8).withUnsafeBytes({ IntegerScan.scan($0) }) {
                case .outOfRange: reason = "outside the signed 64-bit range"
                case .notInteger: reason = "not an integer"
                default: reason = "not a decimal integer code"
                }
                io.printError("errcat explain: \(DisplayText.singleQuoted(argument)) is \(reason)")
                status = ExitStatus.problems
                continue
            }
            let classification = table.classify(code)
            if present {
                out.write(presentationText(of: code, in: table, language: language))
            } else if json {
                out.write(byte: UInt8(ascii: "{"))
                describer.writeJSONMembers(code, classification, into: &out)
                out.endLine()
            } else {
                describer.writeText(code, classification, into: &out)
            }
        }
        if !io.finish(&out, command: "explain") { return ExitStatus.problems }
        return status
    }
}
