import GatewayKit
import Testing

/// The command lines of `gateway` and `upstream`: what is accepted, and the reason for what is not.
@Suite("Options: --name value pairs, with clear errors for bad input")
struct OptionsTests {
    @Test("values given are read, missing ones take their default")
    func values() throws {
        let options = try Options(
            ["--port", "0", "--classification", "off", "--upstream", "http://127.0.0.1:1"],
            known: ["port", "classification", "upstream", "host"])
        #expect(try options.int("port", default: 8080, in: 0...65535) == 0)
        #expect(try options.flag("classification", default: true) == false)
        #expect(options.string("upstream", default: "") == "http://127.0.0.1:1")
        #expect(options.string("host", default: "127.0.0.1") == "127.0.0.1")
    }

    @Test(
        "bad command lines are refused with the reason",
        arguments: [
            (["--bogus", "1"], "unknown option '--bogus'"),
            (["port", "1"], "unknown option 'port'"),
            (["--port"], "'--port' needs a value"),
        ])
    func badCommandLines(arguments: [String], reason: String) {
        #expect {
            _ = try Options(arguments, known: ["port"])
        } throws: { error in
            (error as? Options.Problem)?.description == reason
        }
    }

    @Test("values of the wrong kind or out of range are refused with the reason")
    func badValues() throws {
        let options = try Options(
            ["--port", "70000", "--count", "x", "--classification", "maybe"],
            known: ["port", "count", "classification"])
        let range = #expect(throws: Options.Problem.self) { try options.int("port", default: 0, in: 0...65535) }
        #expect(range?.description == "--port is between 0 and 65535, not 70000")
        let integer = #expect(throws: Options.Problem.self) { try options.int("count", default: 0) }
        #expect(integer?.description == "--count needs an integer, not 'x'")
        let flag = #expect(throws: Options.Problem.self) { try options.flag("classification", default: true) }
        #expect(flag?.description == "--classification is 'on' or 'off', not 'maybe'")
    }
}
