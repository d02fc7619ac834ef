// One run of a subcommand: its parsed arguments, and the options every command reads the same way.

import SwiftErr
import SwiftErrCatalogFile

/// A subcommand being run: the parsed command line and what a usage error prints.
///
/// Each command's body receives one and ends early by throwing an ``ExitCode`` whose message is
/// already printed: ``usage(_:)`` for a wrong command line (status 2), ``catalog()`` for a
/// catalog that cannot be loaded (status 1).
struct CommandRun {
    /// The subcommand's name, as in "errcat NAME: message".
    let command: String
    /// The subcommand's help, printed after a usage error.
    let help: String
    /// Where the command reads and writes.
    let io: ErrcatIO
    /// The parsed command line.
    let arguments: ParsedArguments

    /// Parses `arguments` against `options` and runs `body`.
    ///
    /// `-h`/`--help` prints the help on standard output (status 0, or 1 if it cannot be written);
    /// an unknown option or a missing value prints a usage error (status 2); neither runs `body`.
    /// - Returns: `body`'s status, or the status of the exit it threw.
    static func start(
        _ arguments: [String], command: String, help: String, options: [OptionSpec], io: ErrcatIO,
        body: (CommandRun) throws(ExitCode) -> Int32
    ) -> Int32 {
        let parsed: ParsedArguments
        do {
            parsed = try parseArguments(arguments, options: options)
        } catch {
            return usageError(io: io, error.message, command: command, help: help).status
        }
        if parsed.wantsHelp {
            var out = OutputBuffer(descriptor: io.output)
            out.write(help)
            out.endLine()
            return io.finish(&out, command: command) ? ExitStatus.success : ExitStatus.problems
        }
        do {
            return try body(CommandRun(command: command, help: help, io: io, arguments: parsed))
        } catch {
            return error.status
        }
    }

    /// Prints "errcat COMMAND: MESSAGE" and the command's help on standard error.
    /// - Returns: The exit to throw: status 2.
    func usage(_ message: String) -> ExitCode {
        Self.usageError(io: io, message, command: command, help: help)
    }

    private static func usageError(io: ErrcatIO, _ message: String, command: String, help: String) -> ExitCode {
        io.printError("errcat \(command): \(DisplayText.sanitized(message))\n\n\(help)")
        return ExitCode(ExitStatus.usage)
    }

    /// `--lang TAG`, any BCP 47 tag, read with the library's ``Language/init(tag:)``; English when
    /// absent. The language rule picks the catalog's language for it (`zh-TW`: `zh-Hant`), else the
    /// catalog's default language.
    /// - Throws: A usage error for a value that is not a well-formed language tag.
    func language() throws(ExitCode) -> Language {
        guard let value = arguments.value("--lang") else { return .english }
        guard let language = Language(tag: value) else {
            throw usage("malformed language tag '\(value)' (use a BCP 47 tag such as en, zh-Hans, zh-Hant or hi)")
        }
        return language
    }

    /// `--catalog FILE`'s catalog, or the built-in one when the option is absent.
    /// - Throws: Status 1 after printing every problem of a file that cannot be read, decoded
    ///   or built.
    func catalog() throws(ExitCode) -> Catalog {
        do {
            return try loadTable(arguments.value("--catalog"), io: io)
        } catch {
            for line in error.lines { io.printError(line) }
            throw ExitCode(ExitStatus.problems)
        }
    }

    /// A whole-number option (`--top 20`, `--max-errors 1K`), at most `Int32.max`.
    /// - Returns: The value, or nil when the option is absent.
    /// - Throws: A usage error for text that is not such a number.
    func count(_ option: String) throws(ExitCode) -> Int? {
        guard let text = arguments.value(option) else { return nil }
        guard let value = parseCount(text), value <= UInt64(Int32.max) else {
            throw usage("\(option) needs \(countRule), at most \(Int32.max); not \(DisplayText.quoted(text))")
        }
        return Int(value)
    }
}

/// An errcat subcommand: its name, help and options, and a body that runs on the parsed
/// command line.
protocol ErrcatCommand {
    /// The word that selects the command: `errcat NAME …`.
    static var name: String { get }
    /// The text `--help` prints.
    static var help: String { get }
    /// The options the command accepts.
    static var options: [OptionSpec] { get }
    /// Runs the command on its parsed command line.
    /// - Returns: The exit status; an early exit throws it instead.
    static func run(_ run: CommandRun) throws(ExitCode) -> Int32
}

extension ErrcatCommand {
    /// Parses `arguments` and runs the command (see ``CommandRun/start(_:command:help:options:io:body:)``).
    static func main(_ arguments: [String], io: ErrcatIO) -> Int32 {
        CommandRun.start(arguments, command: name, help: help, options: options, io: io, body: run)
    }
}
