// `errcat explain CODE...`: what each code means.

import SwiftErr
import SwiftErrCatalogFile

enum ExplainCommand: ErrcatCommand {
    static let name = "explain"

    static let help = """
        USAGE: errcat explain [--json | --present] [--lang TAG] [--catalog FILE] CODE...
               errcat explain --string [--namespace NS] [--json] [--lang TAG] --catalog FILE STRING...

        Prints, for each CODE (a decimal 64-bit integer, negative allowed), its tier
        (success, base, module or unknown), module, case name, message and flags.
        With --string, each argument is a string code (as a format 3 catalog lists them,
        compared as bytes) in the namespace NS (default: the catalog's own): the line
        STRING in NS: the entry's integer code, then that code explained; or, for a string
        the catalog does not list, its namespace's module (unrecognised) or unknown.

        OPTIONS:
          --json            one JSON object per code, one per line, with the keys
                            code, tier, module, name, message, flags, exact
          --present         show each code as an app would present it to its user: the
                            message, where it comes from, a suggestion and the recovery
                            actions its flags call for (the library's terminal presenter)
          --lang LANG       message language, a BCP 47 tag: en (default), zh-Hans, zh-Hant, hi, ...
          --catalog FILE    use this catalog file instead of the built-in catalog
          --string          explain string codes instead of integer codes
          --namespace NS    (with --string) the string codes' namespace
          -h, --help        show this help

        EXIT STATUS: 0 all codes explained; 1 a CODE is not a 64-bit integer (the others
        are still explained) or the catalog is invalid; 2 usage error.
        """

    static let options =
        OptionSpec.values("--lang", "--catalog", "--namespace") + OptionSpec.flags("--json", "--present", "--string")

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
        if parsed.has("--string") {
            guard !present else { throw run.usage("--string and --present cannot be combined") }
            let namespace = parsed.value("--namespace")
            for argument in parsed.positionals {
                explain(string: argument, namespace: namespace, in: table, describer: describer, json: json, into: &out)
            }
            return io.finish(&out, command: "explain") ? status : ExitStatus.problems
        }
        guard parsed.value("--namespace") == nil else { throw run.usage("--namespace needs --string") }
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

    /// One string code: `"STRING" in namespace "NS" → CODE` then the code explained, or the module
    /// that owns its namespace (unrecognised), or unknown. JSON: `string` and `namespace`, then the
    /// code's members (`code` null when the catalog lists no entry for the string).
    private static func explain(
        string: String, namespace: String?, in table: Catalog, describer: CodeDescriber, json: Bool,
        into out: inout OutputBuffer
    ) {
        let classification = table.classify(string: string, namespace: namespace)
        let code = classification.entryIndex.flatMap { table.code(at: $0) }
        let space = namespace.flatMap { $0.isEmpty ? nil : $0 }
        if json {
            out.write("{\"string\":")
            out.write(jsonString: string)
            out.write(",\"namespace\":")
            out.write(jsonOptionalString: space)
            out.write(",")
            if let code {
                describer.writeJSONMembers(code, classification, into: &out)
            } else {
                out.write("\"code\":null,\"tier\":")
                out.write(jsonString: classification.tier.name)
                out.write(",\"module\":")
                out.write(
                    jsonOptionalString: classification.moduleID == 0 ? nil : table.moduleName(classification.moduleID))
                out.write(",\"exact\":false}")
            }
            out.endLine()
            return
        }
        out.write(
            DisplayText.quoted(string) + " in "
                + (space.map { "namespace \(DisplayText.quoted($0))" } ?? "the catalog's own namespace"))
        if let code {
            out.write(" → \(code)")
            out.endLine()
            describer.writeText(code, classification, into: &out)
        } else if classification.moduleID != 0 {
            out.write(": module \(DisplayText.bare(table.moduleName(classification.moduleID) ?? "")), unrecognised")
            out.endLine()
        } else {
            out.write(": unknown")
            out.endLine()
        }
    }
}
