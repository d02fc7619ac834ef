// Every command reports a failed write of its output (a full disk, a descriptor open only for
// reading) with the system's reason, in one form, and exits 1.

import ErrcatKit
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("errcat write failures")
struct WriteFailureTests {
    /// Runs errcat with standard output on `outputPath` opened with `flags`, standard error on a
    /// file; returns the status and what reached standard error.
    static func run(_ arguments: [String], outputPath: String, flags: Int32) throws -> (status: Int32, errors: String) {
        let directory = try ErrcatRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let errorPath = directory.appendingPathComponent("stderr").path
        let input = open("/dev/null", O_RDONLY)
        let output = open(outputPath, flags)
        let error = open(errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { for descriptor in [input, output, error] where descriptor >= 0 { close(descriptor) } }
        try #require(input >= 0 && output >= 0 && error >= 0)
        try #require(FileManager.default.changeCurrentDirectoryPath(ErrcatRunner.repositoryRoot.path))
        let status = Errcat.run(arguments, io: ErrcatIO(input: input, output: output, error: error))
        return (status, String(decoding: try Data(contentsOf: URL(fileURLWithPath: errorPath)), as: UTF8.self))
    }

    static let commands: [(String, [String])] = [
        ("errcat", ["--help"]),
        ("errcat", ["help"]),
        ("errcat check", ["check", "--help"]),
        ("errcat check", ["check", "catalog/default.json"]),
        ("errcat explain", ["explain", "11001"]),
        ("errcat explain", ["explain", "--help"]),
        ("errcat sample", ["sample", "100"]),
        ("errcat gen", ["gen", "c", "catalog/default.json"]),
        ("errcat gen", ["gen", "swift", "catalog/default.json"]),
        ("errcat gen", ["gen", "--help"]),
    ]

    @Test("stdout on /dev/full: exit 1, \"cannot write standard output: No space left on device\"", arguments: commands)
    func fullDisk(prefix: String, arguments: [String]) throws {
        let result = try Self.run(arguments, outputPath: "/dev/full", flags: O_WRONLY)
        #expect(result.status == 1, "\(arguments)")
        #expect(result.errors == "\(prefix): cannot write standard output: \(String(cString: strerror(ENOSPC)))\n")
    }

    @Test(
        "stdout open only for reading (as errcat's main makes a closed one): \"Bad file descriptor\"",
        arguments: commands)
    func closedOutput(prefix: String, arguments: [String]) throws {
        let result = try Self.run(arguments, outputPath: "/dev/null", flags: O_RDONLY)
        #expect(result.status == 1, "\(arguments)")
        #expect(result.errors == "\(prefix): cannot write standard output: \(String(cString: strerror(EBADF)))\n")
    }

    @Test("gen --output on a full disk names the file and the reason")
    func fullOutputFile() throws {
        let result = try ErrcatRunner.run(["gen", "c", "catalog/default.json", "--output", "/dev/full"])
        #expect(result.status == 1)
        #expect(result.errors == "errcat gen: cannot write /dev/full: \(String(cString: strerror(ENOSPC)))\n")
    }

    @Test("check with diagnostics on a full disk still exits 1")
    func fullDiagnostics() throws {
        let directory = try ErrcatRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let broken = directory.appendingPathComponent("broken.json")
        try Data(CheckTests.broken.utf8).write(to: broken)
        let input = open("/dev/null", O_RDONLY)
        let output = open("/dev/null", O_WRONLY)
        let full = open("/dev/full", O_WRONLY)
        defer { for descriptor in [input, output, full] { close(descriptor) } }
        #expect(Errcat.run(["check", broken.path], io: ErrcatIO(input: input, output: output, error: full)) == 1)
        #expect(
            Errcat.run(["check", "catalog/default.json"], io: ErrcatIO(input: input, output: output, error: full)) == 0)
    }
}
