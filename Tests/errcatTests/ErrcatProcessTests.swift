// The `errcat` executable end to end, as a shell runs it: real processes, pipes between them and
// exit statuses. Everything else about the commands is tested in process (ErrcatKitTests).

import Foundation
import Testing

/// Launches the `errcat` executable built with the tests.
enum ErrcatProcess {
    /// The executable: `ERRCAT` from the environment when set, otherwise the `errcat` that SwiftPM
    /// builds next to the test bundle (`.build/<triple>/<configuration>/`).
    static let executable: URL = {
        if let path = ProcessInfo.processInfo.environment["ERRCAT"] {
            return URL(fileURLWithPath: path)
        }
        return Bundle.main.bundleURL.appendingPathComponent("errcat")
    }()

    /// The repository root (this file is Tests/errcatTests/ErrcatProcessTests.swift).
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A configured, not yet started process.
    static func process(_ arguments: [String]) -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = repositoryRoot
        return process
    }

    /// Runs errcat, feeding `input` on standard input; returns status, stdout and stderr. The
    /// streams are files, so no pipe can fill up and block the child.
    static func run(_ arguments: [String], input: Data = Data()) throws -> (
        status: Int32, output: String, errors: String
    ) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "errcat-process-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = ["stdin", "stdout", "stderr"].map { directory.appendingPathComponent($0) }
        try input.write(to: files[0])
        for file in files.dropFirst() { try Data().write(to: file) }
        let stdin = try FileHandle(forReadingFrom: files[0])
        let stdout = try FileHandle(forWritingTo: files[1])
        let stderr = try FileHandle(forWritingTo: files[2])
        defer { for handle in [stdin, stdout, stderr] { try? handle.close() } }
        let process = process(arguments)
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: try Data(contentsOf: files[1]), as: UTF8.self),
            String(decoding: try Data(contentsOf: files[2]), as: UTF8.self)
        )
    }
}

@Suite("errcat as a process")
struct ErrcatProcessTests {
    @Test("the executable exists where the tests look for it")
    func executableIsBuilt() {
        #expect(
            FileManager.default.isExecutableFile(atPath: ErrcatProcess.executable.path),
            "no errcat at \(ErrcatProcess.executable.path): build it, or set ERRCAT")
    }

    @Test("exit statuses: 0 success, 1 problems in the input, 2 usage")
    func exitStatuses() throws {
        let help = try ErrcatProcess.run(["--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("USAGE: errcat <command>"))
        let explained = try ErrcatProcess.run(["explain", "11001", "not-a-code"])
        #expect(explained.status == 1)
        #expect(explained.output.contains("11001: base tokenExpire"))
        #expect(explained.errors.contains("'not-a-code'"))
        let usage = try ErrcatProcess.run(["frobnicate"])
        #expect(usage.status == 2)
        #expect(usage.output.isEmpty)
        #expect(usage.errors.contains("unknown command 'frobnicate'"))
    }

    @Test("sample | classify through a real pipe between two processes counts every line")
    func pipeline() throws {
        let sample = ErrcatProcess.process(["sample", "20000", "--seed", "5"])
        let classify = ErrcatProcess.process(["classify", "--json", "--quiet", "-"])
        let pipe = Pipe()
        let output = Pipe()
        sample.standardOutput = pipe
        classify.standardInput = pipe
        classify.standardOutput = output
        try sample.run()
        try classify.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        sample.waitUntilExit()
        classify.waitUntilExit()
        #expect(sample.terminationStatus == 0)
        #expect(classify.terminationStatus == 0)
        let summary = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(summary["total"] as? Int == 20000)
    }

    @Test("classify reads standard input when given no file")
    func standardInput() throws {
        let result = try ErrcatProcess.run(
            ["classify", "--each", "--quiet"], input: Data("0\n11001\n{\"ret\":11210005}\n".utf8))
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 6, "a line and its message per input line")
        #expect(lines.first == "1: 0: success")
        #expect(result.output.contains("3: 11210005: module studyGroup.wrongTeamCode"))
    }

    @Test(
        "classify --each ends when its reader goes away, with SIGPIPE ignored or not",
        arguments: ["trap '' PIPE; ", ""])
    func closedPipeEnds(trap: String) throws {
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        let errcat = ErrcatProcess.executable.path
        // `timeout` ends a hang (status 124) instead of letting the test run forever.
        shell.arguments = [
            "-c", "(\(trap)yes 11001 | timeout 60 '\(errcat)' classify --each - | head -1); echo \"status $?\"",
        ]
        let output = Pipe()
        shell.standardOutput = output
        let started = Date()
        try shell.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        shell.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix("1: 11001: base tokenExpire"), "\(text)")
        #expect(Date().timeIntervalSince(started) < 50, "took \(Date().timeIntervalSince(started)) s")
    }
}
