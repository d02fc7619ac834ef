// Running the built `errcat` executable from tests: finding it, feeding it input, and
// collecting its exit status, stdout and stderr.

import Foundation
import Testing

/// The result of one run of `errcat`.
struct ErrcatResult {
    var status: Int32
    var stdout: Data
    var stderr: Data

    var output: String { String(decoding: stdout, as: UTF8.self) }
    var errors: String { String(decoding: stderr, as: UTF8.self) }

    /// stdout split into lines (no trailing empty line).
    var lines: [String] {
        var lines = output.components(separatedBy: "\n")
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

enum Errcat {
    /// The repository root (this file is Tests/ErrcatTests/ErrcatProcess.swift).
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `errcat` executable built with the tests: `ERRCAT` from the environment if set,
    /// else next to the test bundle (SwiftPM puts products and the test bundle in one
    /// directory, `.build/<triple>/<configuration>`).
    static let executable: URL? = {
        let fileManager = FileManager.default
        if let path = ProcessInfo.processInfo.environment["ERRCAT"], fileManager.isExecutableFile(atPath: path) {
            return URL(fileURLWithPath: path)
        }
        var directories: [URL] = []
        let bundle = Bundle.main.bundleURL
        directories.append(bundle)
        directories.append(bundle.deletingLastPathComponent())
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        if let executablePath = try? fileManager.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            directories.append(URL(fileURLWithPath: executablePath).deletingLastPathComponent())
        }
        if let first = CommandLine.arguments.first {
            directories.append(URL(fileURLWithPath: first).deletingLastPathComponent())
        }
        for directory in directories {
            let candidate = directory.appendingPathComponent("errcat")
            var isDirectory: ObjCBool = false
            if fileManager.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
               fileManager.isExecutableFile(atPath: candidate.path) {
                return candidate
            }
        }
        return nil
    }()

    /// A fresh empty temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("errcat-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `bytes` to a new temporary file and returns its path.
    static func temporaryFile(_ bytes: Data, name: String = "input") throws -> URL {
        let url = try temporaryDirectory().appendingPathComponent(name)
        try bytes.write(to: url)
        return url
    }

    /// Runs errcat with `arguments` in the repository root, `stdin` as standard input
    /// (empty when nil). Output goes through files, so any size is safe.
    static func run(_ arguments: [String], stdin: Data? = nil) throws -> ErrcatResult {
        let executable = try #require(Errcat.executable, "errcat executable not found next to the test bundle; build it or set ERRCAT")
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let inputURL = directory.appendingPathComponent("stdin")
        let outputURL = directory.appendingPathComponent("stdout")
        let errorURL = directory.appendingPathComponent("stderr")
        try (stdin ?? Data()).write(to: inputURL)
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let input = try FileHandle(forReadingFrom: inputURL)
        let output = try FileHandle(forWritingTo: outputURL)
        let error = try FileHandle(forWritingTo: errorURL)
        defer {
            try? input.close()
            try? output.close()
            try? error.close()
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = repositoryRoot
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        process.waitUntilExit()
        return ErrcatResult(status: process.terminationStatus,
                            stdout: try Data(contentsOf: outputURL),
                            stderr: try Data(contentsOf: errorURL))
    }

    /// Runs errcat with `lines` joined by newlines as standard input.
    static func run(_ arguments: [String], lines: [String]) throws -> ErrcatResult {
        try run(arguments, stdin: Data(lines.joined(separator: "\n").utf8))
    }
}
