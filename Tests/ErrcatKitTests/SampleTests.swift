// `errcat sample`: deterministic, and the promised mix of lines.

import Foundation
import Testing

@Suite("errcat sample")
struct SampleTests {
    @Test("the same seed gives the same output; another seed another")
    func deterministic() throws {
        let first = try ErrcatRunner.run(["sample", "5000", "--seed", "42"])
        let second = try ErrcatRunner.run(["sample", "5_000", "--seed", "42"])
        let other = try ErrcatRunner.run(["sample", "5000", "--seed", "43"])
        #expect(first.status == 0)
        #expect(first.stdout == second.stdout)
        #expect(first.stdout != other.stdout)
        #expect(first.lines.count == 5000)
    }

    @Test("N lines exactly, including 0", arguments: [0, 1, 999, 4096])
    func count(lines: Int) throws {
        let result = try ErrcatRunner.run(["sample", String(lines)])
        #expect(result.status == 0)
        #expect(result.stdout.filter { $0 == 0x0A }.count == lines)
    }

    @Test("the mix has success, base, module, unrecognised, unknown and invalid lines")
    func mix() throws {
        let sample = try ErrcatRunner.run(["sample", "20000", "--seed", "9"])
        let summary = try ErrcatRunner.run(["classify", "--json"], stdin: sample.stdout).jsonObject()
        let tiers = try #require(summary["tiers"] as? [String: Int])
        #expect(tiers["success"]! > 12_000)
        #expect(tiers["base"]! > 1_000)
        #expect(tiers["module"]! > 1_000)
        #expect(tiers["unknown"]! > 100)
        let unrecognised = try #require(summary["unrecognised"] as? [String: Int])
        #expect(unrecognised.values.reduce(0, +) > 100)
        let invalid = try #require(summary["invalid"] as? Int)
        #expect(invalid > 10 && invalid < 1_000)
        let reasons = try #require(summary["invalidReasons"] as? [String: Int])
        #expect(reasons.count >= 4)
    }

    @Test("--keys code writes code/message/data envelopes")
    func keys() throws {
        let sample = try ErrcatRunner.run(["sample", "200", "--keys", "code"])
        #expect(sample.lines.filter { $0.hasPrefix("{") }.allSatisfy { $0.hasPrefix("{\"code\":") })
        let summary = try ErrcatRunner.run(["classify", "--json", "--keys", "code"], stdin: sample.stdout).jsonObject()
        #expect((summary["valid"] as? Int ?? 0) > 190)
    }
}
