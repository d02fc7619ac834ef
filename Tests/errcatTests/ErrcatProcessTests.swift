// The `errcat` executable end to end, as a shell runs it: real processes, pipes between them and
// exit statuses. Everything else about the commands is tested in process (ErrcatKitTests).

import ChildProcess
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
    static func run(_ arguments: [String], input: Data = Data()) async throws -> (
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
        let status = try await ChildProcess.run(process)
        return (
            status, String(decoding: try Data(contentsOf: files[1]), as: UTF8.self),
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
    func exitStatuses() async throws {
        let help = try await ErrcatProcess.run(["--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("USAGE: errcat <command>"))
        let explained = try await ErrcatProcess.run(["explain", "11001", "not-a-code"])
        #expect(explained.status == 1)
        #expect(explained.output.contains("11001: base tokenExpire"))
        #expect(explained.errors.contains("'not-a-code'"))
        let usage = try await ErrcatProcess.run(["frobnicate"])
        #expect(usage.status == 2)
        #expect(usage.output.isEmpty)
        #expect(usage.errors.contains("unknown command 'frobnicate'"))
    }

    @Test("sample | classify through a real pipe between two processes counts every line")
    func pipeline() async throws {
        let sample = ErrcatProcess.process(["sample", "20000", "--seed", "5"])
        let classify = ErrcatProcess.process(["classify", "--json", "--quiet", "-"])
        let pipe = Pipe()
        let outputURL = FileManager.default.temporaryDirectory.appendingPathComponent(
            "errcat-pipeline-\(UUID().uuidString)")
        try Data().write(to: outputURL)
        defer { try? FileManager.default.removeItem(at: outputURL) }
        let output = try FileHandle(forWritingTo: outputURL)
        defer { try? output.close() }
        sample.standardOutput = pipe
        classify.standardInput = pipe
        classify.standardOutput = output
        async let sampled = ChildProcess.run(sample)
        async let classified = ChildProcess.run(classify)
        #expect(try await sampled == 0)
        #expect(try await classified == 0)
        let data = try Data(contentsOf: outputURL)
        let summary = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(summary["total"] as? Int == 20000)
    }

    @Test("classify reads standard input when given no file")
    func standardInput() async throws {
        let result = try await ErrcatProcess.run(
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
    func closedPipeEnds(trap: String) async throws {
        let errcat = ErrcatProcess.executable.path
        // `timeout` ends a hang with status 124 instead of letting the test run forever; errcat's
        // own status says whether it ended by itself (how long that took depends on the machine's
        // load, so it is not what the test checks).
        let result = try await Self.bash(
            "\(trap)yes 11001 | timeout 60 \"$0\" classify --each - | head -1; echo \"status ${PIPESTATUS[1]}\"")
        let lines = result.output.split(separator: "\n")
        #expect(lines.first?.hasPrefix("1: 11001: base tokenExpire") == true, "\(result.output)")
        let status = try #require(lines.last.flatMap { Int($0.dropFirst("status ".count)) }, "\(result.output)")
        #expect(status != 124, "errcat did not end when its reader went away; timeout stopped it")
        // 141: ended by SIGPIPE; 1: the write failed with EPIPE (SIGPIPE ignored here, or already
        // ignored by whatever started the test run, which a shell cannot undo).
        #expect(trap.isEmpty ? [141, 1].contains(status) : status == 1, "\(result.output)\(result.errors)")
    }

    /// Runs `script` with bash (`$0` is the errcat executable) in the repository root.
    static func bash(_ script: String) async throws -> (status: Int32, output: String, errors: String) {
        let bash = try #require(
            ["/bin/bash", "/usr/bin/bash"].first { FileManager.default.isExecutableFile(atPath: $0) })
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "errcat-bash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = ["stdout", "stderr"].map { directory.appendingPathComponent($0) }
        for file in files { try Data().write(to: file) }
        let stdout = try FileHandle(forWritingTo: files[0])
        let stderr = try FileHandle(forWritingTo: files[1])
        defer { for handle in [stdout, stderr] { try? handle.close() } }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: bash)
        process.arguments = ["-c", script, ErrcatProcess.executable.path]
        process.currentDirectoryURL = ErrcatProcess.repositoryRoot
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdout
        process.standardError = stderr
        let status = try await ChildProcess.run(process)
        return (
            status, String(decoding: try Data(contentsOf: files[0]), as: UTF8.self),
            String(decoding: try Data(contentsOf: files[1]), as: UTF8.self)
        )
    }

    @Test("check >/dev/full and check >&- exit 1 with the system's reason; so does --help")
    func writeFailures() async throws {
        let full = try await Self.bash(#""$0" check catalog/default.json >/dev/full; echo "status $?""#)
        #expect(full.output == "status 1\n")
        #expect(full.errors == "errcat check: cannot write standard output: No space left on device\n")
        let closed = try await Self.bash(#""$0" check catalog/default.json >&-; echo "status $?" >&2"#)
        #expect(closed.errors == "errcat check: cannot write standard output: Bad file descriptor\nstatus 1\n")
        let help = try await Self.bash(#""$0" --help >/dev/full; echo "status $?""#)
        #expect(help.output == "status 1\n")
        #expect(help.errors == "errcat: cannot write standard output: No space left on device\n")
        // With standard output closed, the catalog is still read from its own file, and the
        // output cannot end up in it.
        let gen = try await Self.bash(#""$0" gen c catalog/default.json >&-; echo "status $?" >&2"#)
        #expect(gen.errors == "errcat gen: cannot write standard output: Bad file descriptor\nstatus 1\n")
    }

    @Test("diff reads catalogs from /dev/fd (process substitution), exits 1 on a breaking change and 2 on a bad file")
    func diffThroughTheShell() async throws {
        let same = try await Self.bash(#""$0" diff <(cat catalog/default.json) catalog/default.json; echo "status $?""#)
        #expect(same.output == "no changes\nstatus 0\n", "\(same.errors)")
        // An older catalog whose tokenExpire had another message: compatible.
        let reworded = #"<(sed 's/Your session has expired/Your session ended/' catalog/default.json)"#
        let text = try await Self.bash(#""$0" diff "# + reworded + #" catalog/default.json; echo "status $?""#)
        #expect(
            text.output.hasPrefix("COMPATIBLE 11001 base tokenExpire: message (en) changed"),
            "\(text.output)\(text.errors)")
        #expect(text.output.hasSuffix("1 change: 0 breaking, 0 allowed, 1 compatible\nstatus 0\n"), "\(text.output)")
        // An older catalog whose tokenExpire did not ask to sign in again: breaking, unless allowed.
        let unflagged = #"<(sed '0,/"reauthenticate",/s///' catalog/default.json)"#
        let flag = try await Self.bash(#""$0" diff "# + unflagged + #" catalog/default.json; echo "status $?""#)
        #expect(flag.output.hasPrefix("BREAKING   11001 base tokenExpire: flag reauthenticate added"), "\(flag.output)")
        #expect(flag.output.hasSuffix("status 1\n"))
        let allowed = try await Self.bash(
            #""$0" diff --allow 11001 "# + unflagged + #" catalog/default.json; echo "status $?""#)
        #expect(
            allowed.output.hasSuffix("1 change: 0 breaking, 1 allowed, 0 compatible\nstatus 0\n"), "\(allowed.output)")
        let full = try await Self.bash(
            #""$0" diff catalog/default.json catalog/default.json >/dev/full; echo "status $?""#)
        #expect(full.output == "status 2\n")
        #expect(full.errors == "errcat diff: cannot write standard output: No space left on device\n")
        let missing = try await Self.bash(#""$0" diff /nonexistent.json catalog/default.json; echo "status $?""#)
        #expect(missing.output == "status 2\n")
        #expect(missing.errors.contains("cannot read catalog /nonexistent.json: No such file or directory"))
    }

    @Test("a reader that goes away: SIGPIPE's default action ends errcat (status 141 in the shell)")
    func brokenPipeDefault() async throws {
        let result = try await Self.bash(#""$0" sample 1M | head -c 10 >/dev/null; echo "status ${PIPESTATUS[0]}""#)
        #expect(result.output == "status 141\n")
        #expect(result.errors.isEmpty)
    }

    @Test("a reader that goes away with SIGPIPE ignored: \"Broken pipe\", status 1, and errcat stops")
    func brokenPipeIgnored() async throws {
        // The reader (`true`) is gone before errcat starts, so its first write fails. A 1 GiB
        // sample would take minutes: finishing at once shows that errcat stops at that write.
        for (command, prefix) in [
            ("sample 1G", "errcat sample"), ("--help", "errcat"), ("explain 11001", "errcat explain"),
            ("check catalog/default.json", "errcat check"), ("gen swift catalog/default.json", "errcat gen"),
        ] {
            let result = try await Self.bash(
                #"trap '' PIPE; exec 3>&1; { sleep 0.3; "$0" "# + command + #" 2>&3; echo "status $?" >&3; } | true"#)
            #expect(result.output == "\(prefix): cannot write standard output: Broken pipe\nstatus 1\n", "\(command)")
        }
    }
}
