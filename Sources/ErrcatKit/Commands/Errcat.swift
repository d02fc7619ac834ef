// The top level: subcommand dispatch, the tool's help, and the exit statuses.

import SwiftErr
import SwiftErrCatalogFile

/// Exit statuses of every subcommand but `diff`, whose 1 means "breaking changes" and 2 anything
/// that keeps it from answering (``DiffCommand``; docs/errcat.md lists both).
enum ExitStatus {
    /// Success: the output is complete.
    static let success: Int32 = 0
    /// The input has problems: a catalog with errors, an unreadable file, an invalid code
    /// argument, invalid lines with `classify --strict`, warnings with `import po --strict`, a
    /// drifted generated file, a write error.
    static let problems: Int32 = 1
    /// The command line is wrong: unknown subcommand or option, missing or extra arguments.
    static let usage: Int32 = 2
}

/// The `errcat` tool: every command, runnable in process (``run(_:io:)``).
public enum Errcat {
    static let help = """
        errcat — classify SwiftErr response codes and work with catalog files

        USAGE: errcat <command> [options] [arguments]

        COMMANDS:
          explain CODE...          tier, module, name, message and flags of each code
          classify [FILE|-]        classify a stream of codes or JSON envelopes (summary or per line)
          check CATALOG.json       validate a catalog file, reporting every problem
          gen c|swift CATALOG.json print the C table source or the Swift module enums of a catalog
          gen xcstrings|po LANG    a catalog's texts for translators: Xcode String Catalog, .po file
          import po FILE CATALOG   write a .po file's translations back into the catalog
          migrate CATALOG.json     rewrite a format 1 or 2 catalog file in format 3
          diff OLD.json NEW.json   list the changes between two versions of a catalog, breaking or
                                   compatible (exit 1 on a breaking change)
          sample N [--seed S]      write N realistic JSONL response envelopes
          merge SUMMARY.json...    add up JSON summaries of classify (shards of one log)

        Run 'errcat <command> --help' for a command's options.
        Without --catalog, explain and classify use the built-in default catalog.
        Counts and sizes (sample N, --max-problems, --top, --max-errors, --max-line-bytes) are
        whole numbers, optionally grouped with '_', with an optional suffix K, M or G (either
        case) meaning 2^10, 2^20 or 2^30: 1_000_000, 64K = 65,536, 16M = 16,777,216.

        EXIT STATUS:
          0  success
          1  problems in the input (catalog errors, unreadable file, invalid code argument,
             invalid lines with classify --strict, warnings with import po --strict, generated
             file out of date), or a failed write ("errcat <command>: cannot write <what>:
             <reason>" on standard error)
          2  usage error (unknown command or option, missing or extra arguments)
          diff has its own: 0 compatible, 1 breaking changes, 2 usage error, an unreadable or
             invalid catalog, a stale --allow, or a failed write (see errcat diff --help)
          141 (128 + SIGPIPE, as shells report it): the reader of standard output went away;
             errcat keeps SIGPIPE's default action. When SIGPIPE is ignored, that write fails
             with "Broken pipe" instead and the status is 1.
        """

    /// Runs one errcat command in this process.
    /// - Parameters:
    ///   - arguments: The command line without the program name, e.g. `["explain", "11001"]`.
    ///   - io: Where to read standard input and write standard output and error.
    /// - Returns: The exit status: 0 success, 1 problems in the input, 2 usage error (`diff`: 0
    ///   compatible, 1 breaking changes, 2 usage error or a catalog that cannot be compared).
    public static func run(_ arguments: [String], io: ErrcatIO = .standard) -> Int32 {
        guard let command = arguments.first else {
            io.printError(help)
            return ExitStatus.usage
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "-h", "--help", "help":
            var out = OutputBuffer(descriptor: io.output)
            out.write(help)
            out.endLine()
            return io.finish(&out, command: nil) ? ExitStatus.success : ExitStatus.problems
        case "explain": return ExplainCommand.main(rest, io: io)
        case "classify": return ClassifyCommand.main(rest, io: io)
        case "check": return CheckCommand.main(rest, io: io)
        case "gen": return GenCommand.main(rest, io: io)
        case "diff": return DiffCommand.main(rest, io: io)
        case "sample": return SampleCommand.main(rest, io: io)
        case "merge": return MergeCommand.main(rest, io: io)
        case "import": return ImportCommand.main(rest, io: io)
        case "migrate": return MigrateCommand.main(rest, io: io)
        default:
            io.printError("errcat: unknown command \(DisplayText.singleQuoted(command))\n\n" + help)
            return ExitStatus.usage
        }
    }
}

/// Ends a command early with this exit status; what went wrong is already printed.
struct ExitCode: Error {
    var status: Int32
    init(_ status: Int32) { self.status = status }
}
