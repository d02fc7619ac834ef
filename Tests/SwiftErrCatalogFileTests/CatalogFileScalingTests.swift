// Reading hostile catalog files takes time linear (or n log n) in their size: locating many
// problems on one long line, many modules, many overlapping ranges; and the problems kept are the
// first ones in the file, however many there are.

import Foundation
import SwiftErr
import Testing

@testable import SwiftErrCatalogFile

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Catalog files: scaling")
struct CatalogFileScalingTests {
    /// CPU seconds used by the calling thread (a synchronous test runs on one thread, so other
    /// tests running at the same time do not count).
    static func threadSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The thread CPU time of `body`.
    static func measure(_ body: () -> Void) -> Double {
        let start = threadSeconds()
        body()
        return threadSeconds() - start
    }

    /// Where byte `offset` is, found the slow way: count lines and scalars from the start.
    static func naiveLocation(_ bytes: [UInt8], _ offset: Int) -> SwiftErrCatalogFile.SourceLocation {
        let offset = max(0, min(offset, bytes.count))
        var line = 1
        var column = 1
        for byte in bytes[..<offset] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return SwiftErrCatalogFile.SourceLocation(line: line, column: column)
    }

    @Test("locating many offsets at once agrees with counting from the start", arguments: [1, 2, 3, 4, 5])
    func locationsAgree(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let pieces: [[UInt8]] = [
            Array("a".utf8), Array("\n".utf8), Array("\r\n".utf8), Array("学".utf8), Array("é".utf8), Array("🙂".utf8),
            [0x80],
        ]
        var bytes: [UInt8] = []
        for _ in 0..<Int(random.below(400)) { bytes += pieces[Int(random.below(UInt64(pieces.count)))] }
        let offsets = (0..<Int(random.below(200))).map { _ in Int(random.below(UInt64(bytes.count + 10))) - 3 }
        let index = LineIndex(bytes)
        let located = index.locations(of: offsets)
        #expect(located == offsets.map { Self.naiveLocation(bytes, $0) })
        for offset in offsets.prefix(20) {
            #expect(index.location(of: offset) == Self.naiveLocation(bytes, offset))
        }
    }

    @Test("the collector keeps the first problems in the file, counts the rest, and builds only kept messages")
    func collectorKeepsFirst() {
        var random = SplitMix64(seed: 9)
        var collector = ProblemCollector(limit: 50)
        var offsets: [Int] = []
        var built = 0
        for _ in 0..<5000 {
            let offset = Int(random.below(3000))
            offsets.append(offset)
            collector.report(
                offset,
                {
                    built += 1
                    return "problem at \(offset)"
                }())
        }
        #expect(collector.count == 5000)
        #expect(collector.omittedCount == 4950)
        let kept = collector.problems
        #expect(kept.map(\.offset) == Array(offsets.sorted().prefix(50)))
        #expect(kept.allSatisfy { $0.message == "problem at \($0.offset)" })
        #expect(built < 1000, "messages of problems that are not kept are not built (\(built) built)")
        // Equal offsets keep the order of report.
        var ties = ProblemCollector(limit: 3)
        for index in 0..<10 { ties.report(7, "\(index)") }
        #expect(ties.problems.map(\.message) == ["0", "1", "2"])
    }

    /// A catalog whose base tier is `count` entries on one line, each with an unknown key: one
    /// problem per entry (about 68 bytes each: 50,000 make 3.4 MB).
    static func oneLine(entries count: Int) -> [UInt8] {
        var text =
            #"{"format":"swifterr-catalog/1","name":"x","success":{"code":0,"name":"ok","message":{"en":"ok"}},"base":["#
        for index in 0..<count {
            if index > 0 { text += "," }
            text += #"{"code":\#(index + 1),"name":"name\#(index)","message":{"en":"message"},"bad":1}"#
        }
        return Array((text + "]}").utf8)
    }

    static func problems(_ bytes: [UInt8], limit: Int) -> CatalogFileError? {
        do {
            _ = try CatalogDefinition(json: bytes, problemLimit: limit)
            return nil
        } catch {
            return error
        }
    }

    @Test("50,000 problems on one 3.4 MB line are all located, in time linear in the file")
    func manyProblemsOnOneLine() throws {
        let small = Self.oneLine(entries: 12_500)
        let large = Self.oneLine(entries: 50_000)
        #expect(large.count > 3_400_000)
        var error: CatalogFileError? = nil
        let smallTime = Self.measure { _ = Self.problems(small, limit: 100_000) }
        let largeTime = Self.measure { error = Self.problems(large, limit: 100_000) }
        let found = try #require(error)
        #expect(found.problems.count == 50_000)
        #expect(found.omittedCount == 0)
        // The last problem: the "bad" key of the last entry.
        let lastKey = large.count - 2 - #""bad":1}"#.utf8.count
        #expect(found.problems.last?.location == SwiftErrCatalogFile.SourceLocation(line: 1, column: lastKey + 1))
        #expect(found.problems.last?.message.contains("unknown key \"bad\"") == true)
        // Quadratic locating took 85 s here in a release build; linear is a few seconds even in debug.
        #expect(largeTime < 60, "\(largeTime) s")
        #expect(largeTime < max(1, smallTime) * 8, "4× the input took \(largeTime / smallTime)× the time")
    }

    @Test("a file with millions of problems keeps the first ones (default limit 1,000) and counts all")
    func millionsOfProblems() throws {
        let head =
            #"{"format":"swifterr-catalog/1","name":"x","success":{"code":0,"name":"ok","message":{"en":"ok"}},"base":["#
        let text = head + Array(repeating: "0", count: 1_000_000).joined(separator: ",") + "]}"
        let error = try #require(Self.problems(Array(text.utf8), limit: CatalogDefinition.defaultProblemLimit))
        #expect(error.problems.count == 1000)
        #expect(error.totalCount == 1_000_000)
        let first = head.utf8.count + 1
        #expect(error.problems.first?.location == SwiftErrCatalogFile.SourceLocation(line: 1, column: first))
        #expect(error.problems.last?.location == SwiftErrCatalogFile.SourceLocation(line: 1, column: first + 2 * 999))
        #expect(error.description.hasSuffix("… and 999000 more problems"))
    }

    /// A valid catalog of `count` modules, one range and one code each.
    static func modules(_ count: Int) -> [UInt8] {
        var text =
            #"{"format":"swifterr-catalog/1","name":"x","success":{"code":0,"name":"ok","message":{"en":"ok"}},"modules":["#
        for index in 0..<count {
            if index > 0 { text += ",\n" }
            let low = 1_000_000 + index * 10
            text +=
                #"{"name":"m\#(index)","ranges":[[\#(low),\#(low + 9)]],"codes":[{"code":\#(low),"name":"a","message":{"en":"x"}}]}"#
        }
        return Array((text + "]}").utf8)
    }

    @Test("65,535 modules are read in time linear in their number")
    func manyModules() throws {
        let small = Self.modules(16_384)
        let large = Self.modules(65_535)
        var definition: CatalogDefinition? = nil
        let smallTime = Self.measure { _ = try? CatalogDefinition(json: small) }
        let largeTime = Self.measure { definition = try? CatalogDefinition(json: large) }
        #expect(definition?.modules.count == 65_535)
        #expect(largeTime < max(1, smallTime) * 8, "4× the modules took \(largeTime / smallTime)× the time")
    }

    @Test("thousands of overlapping ranges and base codes inside them are checked in n log n")
    func overlappingRanges() throws {
        func catalog(_ count: Int) -> [UInt8] {
            // Module k owns [2k, max]: every range overlaps every earlier one, and every base code
            // lies in all of them (the range named is the earliest-starting one).
            var text =
                #"{"format":"swifterr-catalog/1","name":"x","success":{"code":-1,"name":"ok","message":{"en":"ok"}},"base":["#
            for index in 0..<count {
                if index > 0 { text += ",\n" }
                text += #"{"code":\#(1_000_000_000_000 + index),"name":"b\#(index)","message":{"en":"x"}}"#
            }
            text += "],\n\"modules\":["
            for index in 0..<count {
                if index > 0 { text += ",\n" }
                text += #"{"name":"m\#(index)","ranges":[[\#(index * 2),9223372036854775807]]}"#
            }
            return Array((text + "]}").utf8)
        }
        let small = catalog(5_000)
        let large = catalog(20_000)
        var error: CatalogFileError? = nil
        let smallTime = Self.measure { _ = Self.problems(small, limit: 100_000) }
        let largeTime = Self.measure { error = Self.problems(large, limit: 100_000) }
        let found = try #require(error)
        #expect(found.problems.filter { $0.message.contains("overlaps") }.count == 19_999)
        let inRange = found.problems.filter {
            $0.message.contains("lies in range [0, 9223372036854775807] of module \"m0\"")
        }
        #expect(inRange.count == 20_000)
        #expect(largeTime < max(1, smallTime) * 8, "4× the ranges took \(largeTime / smallTime)× the time")
    }
}
