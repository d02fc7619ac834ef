// `--help` everywhere, usage errors exit 2 with the usage on stderr.

import Foundation
import Testing

@Suite("errcat usage and help")
struct UsageTests {
    static let commands = ["explain", "classify", "check", "gen", "sample"]

    @Test("errcat --help prints the tool's usage and exits 0")
    func toolHelp() throws {
        let result = try ErrcatRunner.run(["--help"])
        #expect(result.status == 0)
        #expect(result.output.contains("USAGE: errcat <command>"))
        #expect(result.output.contains("EXIT STATUS"))
        for command in UsageTests.commands {
            #expect(result.output.contains(command))
        }
    }

    @Test("each subcommand has --help", arguments: commands)
    func subcommandHelp(command: String) throws {
        let result = try ErrcatRunner.run([command, "--help"])
        #expect(result.status == 0)
        #expect(result.output.contains("USAGE: errcat \(command)"))
        #expect(result.output.contains("EXIT STATUS"))
        #expect(result.errors.isEmpty)
    }

    @Test(
        "usage errors exit 2 and print the usage on stderr",
        arguments: [
            [], ["frobnicate"], ["explain"], ["explain", "--bogus", "1"], ["explain", "--lang", "fr_FR", "1"],
            ["classify", "a", "b"], ["classify", "--format", "xml"], ["classify", "--keys", "nope"],
            ["classify", "--top"], ["classify", "--code-key", "msg"], ["classify", "--each=yes"],
            ["check"], ["gen", "c"], ["gen", "rust", "catalog/default.json"],
            ["gen", "c", "catalog/default.json", "--module", "tag"], ["gen", "c", "catalog/default.json", "--check"],
            ["sample"], ["sample", "ten"], ["sample", "10", "--seed", "-1"], ["sample", "10", "--format", "xml"],
        ])
    func usageErrors(arguments: [String]) throws {
        let result = try ErrcatRunner.run(arguments)
        #expect(result.status == 2, "\(arguments): \(result.errors)")
        #expect(result.errors.contains("USAGE: errcat"))
        #expect(result.output.isEmpty)
    }

    @Test("a negative number is a code, not an option")
    func negativeCodeIsPositional() throws {
        let result = try ErrcatRunner.run(["explain", "--json", "-11001"])
        #expect(result.status == 0)
        let objects = try result.jsonLines()
        #expect(objects.count == 1)
        #expect(objects.first?["code"] as? Int == -11001)
        #expect(objects.first?["tier"] as? String == "unknown")
    }
}
