// Running errcat commands in process from tests: feeding them input and collecting their exit
// status, stdout and stderr.

import ErrcatKit
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The result of one errcat command.
struct ErrcatResult {
    var status: Int32
    var stdout: Data
    var stderr: Data

    var output: String { String(decoding: stdout, as: UTF8.self) }
    var errors: String { String(decoding: stderr, as: UTF8.self) }

    /// stdout split into lines (no trailing empty line).
    var lines: [String] { Self.split(output) }

    /// stderr split into lines (no trailing empty line).
    var errorLines: [String] { Self.split(errors) }

    private static func split(_ text: String) -> [String] {
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Each stdout line parsed as a JSON object.
    func jsonLines() throws -> [[String: Any]] {
        try lines.map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed])
            return try #require(object as? [String: Any], "not a JSON object: \(line)")
        }
    }

    /// stdout parsed as one JSON object.
    func jsonObject() throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: stdout)
        return try #require(object as? [String: Any], "not a JSON object: \(output)")
    }
}

/// Runs errcat commands in this process (`ErrcatKit.Errcat.run`), with standard input, output
/// and error in temporary files, so any size is safe and nothing is left open.
enum ErrcatRunner {
    /// The repository root (this file is Tests/ErrcatKitTests/Support/ErrcatRunner.swift).
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Commands are run with the repository root as the working directory, so that paths such
    /// as `catalog/default.json` mean what they mean on the command line there.
    private static let workingDirectory: Bool = FileManager.default.changeCurrentDirectoryPath(repositoryRoot.path)

    /// A fresh empty temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("errcat-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The bytes of a fixture file in Tests/Fixtures.
    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: repositoryRoot.appendingPathComponent("Tests/Fixtures/\(name)"))
    }

    /// Writes `bytes` to a new temporary file and returns its URL.
    static func temporaryFile(_ bytes: Data, name: String = "input") throws -> URL {
        let url = try temporaryDirectory().appendingPathComponent(name)
        try bytes.write(to: url)
        return url
    }

    /// Runs errcat with `arguments`, `stdin` as standard input (empty when nil); `entry` is
    /// what runs them (errcat itself unless a test gives a reference implementation).
    static func run(
        _ arguments: [String], stdin: Data? = nil, entry: ([String], ErrcatIO) -> Int32 = { Errcat.run($0, io: $1) }
    ) throws -> ErrcatResult {
        try #require(workingDirectory, "cannot change to \(repositoryRoot.path)")
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let inputPath = directory.appendingPathComponent("stdin").path
        let outputPath = directory.appendingPathComponent("stdout").path
        let errorPath = directory.appendingPathComponent("stderr").path
        try (stdin ?? Data()).write(to: URL(fileURLWithPath: inputPath))
        let input = open(inputPath, O_RDONLY)
        let output = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let error = open(errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer {
            for descriptor in [input, output, error] where descriptor >= 0 { close(descriptor) }
        }
        try #require(input >= 0 && output >= 0 && error >= 0, "cannot open the standard streams' files")
        let status = entry(arguments, ErrcatIO(input: input, output: output, error: error))
        return ErrcatResult(
            status: status,
            stdout: try Data(contentsOf: URL(fileURLWithPath: outputPath)),
            stderr: try Data(contentsOf: URL(fileURLWithPath: errorPath)))
    }

    /// Runs errcat with `inputDescriptor` (a pipe, say) as standard input; it is not closed.
    static func run(_ arguments: [String], inputDescriptor: Int32) throws -> ErrcatResult {
        try #require(workingDirectory, "cannot change to \(repositoryRoot.path)")
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outputPath = directory.appendingPathComponent("stdout").path
        let errorPath = directory.appendingPathComponent("stderr").path
        let output = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let error = open(errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer {
            for descriptor in [output, error] where descriptor >= 0 { close(descriptor) }
        }
        try #require(output >= 0 && error >= 0, "cannot open the standard streams' files")
        let status = Errcat.run(arguments, io: ErrcatIO(input: inputDescriptor, output: output, error: error))
        return ErrcatResult(
            status: status,
            stdout: try Data(contentsOf: URL(fileURLWithPath: outputPath)),
            stderr: try Data(contentsOf: URL(fileURLWithPath: errorPath)))
    }

    /// Runs errcat with `lines` joined by newlines as standard input.
    static func run(_ arguments: [String], lines: [String]) throws -> ErrcatResult {
        try run(arguments, stdin: Data(lines.joined(separator: "\n").utf8))
    }
}
