// `errcat merge` against the reference merge (Support/ReferenceMerge.swift, which reads every
// summary into a tree with SummaryFile.read and adds codes in a Dictionary): the same exit
// status, standard output and standard error, byte for byte, for random summaries in every
// spelling JSON allows, random edits of them and named hostile inputs. Each summary is also
// given to the one-pass scanner alone: whenever it reads one, SummaryFile.read must accept the
// same bytes with the same counts, and it must read every summary errcat itself writes.
//
// Reproducible: ERRCAT_PROPERTY_SEED (default 1) and ERRCAT_MERGE_CASES (default 300) choose the
// cases; a failure names the seed and the case.

import Foundation
import SwiftErr
import Testing

@testable import ErrcatKit

@Suite("errcat merge: differential against the reference merge")
struct MergeDifferentialTests {
    static let environment = ProcessInfo.processInfo.environment
    static let seed = UInt64(environment["ERRCAT_PROPERTY_SEED"] ?? "") ?? 1
    static let caseCount = Int(environment["ERRCAT_MERGE_CASES"] ?? "") ?? 300
    static let smallCatalog = "Tests/Fixtures/small-catalog.json"

    /// What a generator needs to know of a catalog.
    struct CatalogFacts {
        let path: String?
        let table: Catalog
        var moduleNames: [String] { (1...max(1, table.moduleCount)).compactMap { table.moduleName(UInt16($0)) } }
        var codes: [Int64] { (0..<UInt32(table.entryCount)).compactMap { table.code(at: $0) } }

        init(path: String?) throws {
            self.path = path
            table = try loadTable(path, io: ErrcatIO())
        }
    }

    // MARK: Random summaries

    /// Random summaries as members (key and value JSON text) in the order errcat writes them.
    struct Generator {
        var random: SplitMix64

        mutating func next(_ bound: UInt64) -> UInt64 { bound == 0 ? 0 : random.next() % bound }
        mutating func chance(_ percent: UInt64) -> Bool { next(100) < percent }
        mutating func pick<T>(_ items: [T]) -> T { items[Int(next(UInt64(items.count)))] }

        /// A uniformly random value in 0...limit.
        mutating func upTo(_ limit: UInt64) -> UInt64 { limit == .max ? random.next() : next(limit + 1) }

        /// A count of a size that varies from summary to summary.
        mutating func count(scale: Int) -> UInt64 {
            switch scale {
            case 0: return next(4)
            case 1: return next(1000)
            case 2: return next(1 << 40)
            default: return chance(50) ? UInt64(Int64.max) - next(4) : upTo(UInt64(Int64.max))
            }
        }

        /// `total` split into `parts` random parts.
        mutating func split(_ total: UInt64, _ parts: Int) -> [UInt64] {
            var left = total
            var result: [UInt64] = []
            for _ in 0..<(parts - 1) {
                let part = chance(30) ? 0 : upTo(left)
                result.append(part)
                left -= part
            }
            result.append(left)
            return result.shuffled(using: &random)
        }

        mutating func code(_ facts: CatalogFacts) -> Int64 {
            switch next(6) {
            case 0: return pick(facts.codes)
            case 1: return Int64(next(200_000)) - 100
            case 2: return pick([Int64.min, Int64.max, Int64.min + 1, Int64.max - 1, 0, -1])
            case 3: return Int64(11_000_000 + next(300_000))
            default: return Int64(bitPattern: random.next())
            }
        }

        mutating func summary(_ facts: CatalogFacts) -> [(key: String, value: String)] {
            let scale = Int(pick([0, 1, 1, 1, 2, 2, 3] as [UInt64]))
            var codes = Set<Int64>()
            let pairCount = chance(10) ? Int(next(3000)) : Int(next(40))
            for _ in 0..<pairCount { codes.insert(code(facts)) }
            var pairs = codes.sorted().map { ($0, count(scale: scale)) }
            if chance(5) { pairs = [] }
            let untracked = chance(70) ? 0 : count(scale: scale)
            let valid = pairs.reduce(untracked) { $0 &+ $1.1 }
            let invalid = count(scale: scale)
            let total = valid &+ invalid
            let reasonNames = InvalidCategory.allCases.map(\.name)
            let reasonCounts = split(invalid, reasonNames.count)
            let reasons = zip(reasonNames, reasonCounts).filter { $0.1 > 0 || chance(10) }.sorted { $0.0 < $1.0 }
            let tiers = split(valid, 4)
            let modules = facts.moduleNames
            func object(_ entries: [(String, UInt64)]) -> String {
                "{" + entries.map { "\(Self.quoted($0.0)):\($0.1)" }.joined(separator: ",") + "}"
            }
            return [
                ("schema", Self.quoted(SummaryData.schema)),
                (
                    "catalog",
                    "{\"name\":\(Self.quoted(facts.table.name)),\"hash\":\(Self.quoted(facts.table.identity))}"
                ),
                ("total", String(total)),
                ("valid", String(valid)),
                ("invalid", String(invalid)),
                ("invalidReasons", object(reasons)),
                ("tiers", object(zip(["success", "base", "module", "unknown"], tiers).map { ($0.0, $0.1) })),
                ("modules", object(modules.map { ($0, count(scale: scale)) })),
                ("unrecognised", object(modules.map { ($0, count(scale: scale)) })),
                ("top", top()),
                ("untracked", String(untracked)),
                ("codes", "[" + pairs.map { "[\($0.0),\($0.1)]" }.joined(separator: ",") + "]"),
            ]
        }

        /// A `top` value: valid JSON the merge does not interpret.
        mutating func top() -> String {
            let strings = [
                "\"OK\"", "\"班级码错误\"", "\"\\u00e9\\n\\\"q\\\"\"", "\"\\ud83d\\ude00\"", "null", "true", "-0.5e-3",
                "{}", "[]",
            ]
            var items: [String] = []
            for _ in 0..<Int(next(4)) {
                items.append(
                    "{\"count\":\(next(100)),\"code\":\(Int64(bitPattern: random.next())),\"message\":\(pick(strings)),"
                        + "\"flags\":[\(pick(strings))],\"exact\":true}")
            }
            return "[" + items.joined(separator: ",") + "]"
        }

        static func quoted(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\t": out += "\\t"
                default:
                    if scalar.value < 0x20 {
                        out += String(format: "\\u%04x", scalar.value)
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
            }
            return out + "\""
        }

        /// Whitespace JSON allows between tokens: none most of the time.
        mutating func space() -> String {
            chance(70) ? "" : String((0..<Int(1 + next(3))).map { _ in pick([" ", "\n", "\t", "\r"] as [Character]) })
        }

        /// The members as one document: compact as errcat writes it, or respelled (member order,
        /// whitespace, a byte order mark, an escaped or unknown member, a repeated member), all
        /// still JSON.
        mutating func render(_ members: [(key: String, value: String)], canonical: Bool) -> [UInt8] {
            if canonical {
                return Array(("{" + members.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}\n").utf8)
            }
            var members = members.map { (key: Self.quoted($0.key), value: $0.value) }
            if chance(30) { members.shuffle(using: &random) }
            if chance(15) {
                let index = Int(next(UInt64(members.count)))
                let key = members[index].key
                members[index].key = "\"\\u00" + String(format: "%02x", key.utf8.dropFirst().first!) + key.dropFirst(2)
            }
            if chance(15) { members.insert(("\"extra\"", pick(["1", "{\"a\":[null]}", "\"x\""])), at: 0) }
            if chance(15) {
                let index = Int(next(UInt64(members.count)))
                members.insert(members[index], at: Int(next(UInt64(members.count + 1))))
            }
            // Spaces inside the values' own text: around commas and colons outside strings.
            var text = (chance(10) ? "\u{FEFF}" : "") + space() + "{"
            for (index, member) in members.enumerated() {
                if index > 0 { text += space() + "," }
                text += space() + member.key + space() + ":" + space() + spaced(member.value)
            }
            return Array((text + space() + "}" + space()).utf8)
        }

        /// `json` with random whitespace after structural bytes outside strings.
        mutating func spaced(_ json: String) -> String {
            guard chance(40) else { return json }
            var out = ""
            var inString = false
            var escaped = false
            for character in json {
                out.append(character)
                if inString {
                    if escaped {
                        escaped = false
                    } else if character == "\\" {
                        escaped = true
                    } else if character == "\"" {
                        inString = false
                    }
                } else if character == "\"" {
                    inString = true
                } else if "[]{},:".contains(character) {
                    out += space()
                }
            }
            return out
        }

        /// A random edit of the bytes: the kind of damage a file can take.
        mutating func damage(_ bytes: [UInt8]) -> [UInt8] {
            var bytes = bytes
            let alphabet = Array(#"{}[]:,"\ 0123456789-+.eE"#.utf8) + [0x00, 0x0A, 0x80, 0xC3, 0xED, 0xFF]
            switch next(8) {
            case 0:  // truncated
                bytes = Array(bytes.prefix(Int(next(UInt64(bytes.count + 1)))))
            case 1, 2:  // a few bytes changed, dropped or added
                for _ in 0..<(1 + Int(next(3))) {
                    let position = Int(next(UInt64(bytes.count + 1)))
                    let byte = pick(alphabet)
                    switch next(3) {
                    case 0 where position < bytes.count: bytes[position] = byte
                    case 1 where position < bytes.count: bytes.remove(at: position)
                    default: bytes.insert(byte, at: position)
                    }
                }
            default:  // one number replaced by another spelling or size
                let text = String(decoding: bytes, as: UTF8.self)
                let numbers = Self.numberRanges(text)
                guard let range = numbers.isEmpty ? nil : pick(numbers) else { return bytes }
                let replacement = pick([
                    "-0", "-1", "01", "1.0", "1e3", "0.5", "9223372036854775807", "9223372036854775808",
                    "-9223372036854775808", "-9223372036854775809", "18446744073709551616", "99999999999999999999",
                    "\"1\"", "null", "[1]", "00", "-", "1.", "1e", "+1", "0x10",
                ])
                bytes = Array((text[..<range.lowerBound] + replacement + text[range.upperBound...]).utf8)
            }
            return bytes
        }

        static func numberRanges(_ text: String) -> [Range<String.Index>] {
            var ranges: [Range<String.Index>] = []
            var index = text.startIndex
            var inString = false
            var escaped = false
            while index < text.endIndex {
                let character = text[index]
                if inString {
                    if escaped {
                        escaped = false
                    } else if character == "\\" {
                        escaped = true
                    } else if character == "\"" {
                        inString = false
                    }
                    index = text.index(after: index)
                } else if character == "\"" {
                    inString = true
                    index = text.index(after: index)
                } else if character == "-" || character.isASCII && character.isNumber {
                    let start = index
                    while index < text.endIndex, "-0123456789.eE+".contains(text[index]) {
                        index = text.index(after: index)
                    }
                    ranges.append(start..<index)
                } else {
                    index = text.index(after: index)
                }
            }
            return ranges
        }
    }

    // MARK: The scanner alone

    /// Tallies of the scanner's answers.
    struct ScanCounts {
        var read = 0
        var fellBack = 0
        var fellBackValid = 0
    }

    /// The scanner's answer for `bytes` checked against SummaryFile.read's; `mustRead` says that
    /// the scanner must read them whenever SummaryFile.read accepts them.
    static func checkScanner(
        _ bytes: [UInt8], facts: CatalogFacts, mustRead: Bool, context: String, counts: inout ScanCounts
    ) {
        let scanner = SummaryScanner(SummaryExpectations(table: facts.table, identity: facts.table.identity))
        let fast = PaddedBytes.withCopy(of: bytes) { scanner.read($0) }
        let slow = Result { () throws(SummaryFileError) -> SummaryData in
            try SummaryFile.read(bytes, table: facts.table, identity: facts.table.identity)
        }
        if fast {
            counts.read += 1
            var data = scanner.data
            data.codes = scanner.codePairs
            switch slow {
            case .success(let reference):
                #expect(data == reference, "\(context): the scanner read other counts than SummaryFile.read")
            case .failure(let error):
                Issue.record("\(context): the scanner read a summary SummaryFile.read refuses: \(error.message)")
            }
        } else {
            counts.fellBack += 1
            if case .success = slow {
                counts.fellBackValid += 1
                #expect(!mustRead, "\(context): errcat's own summary not read by the scanner")
            }
        }
    }

    // MARK: Whole merges

    /// Runs `errcat merge ARGUMENTS` and the reference with the same arguments and input.
    /// - Returns: errcat's exit status.
    @discardableResult
    static func compare(_ arguments: [String], stdin: Data? = nil, context: String) throws -> Int32 {
        let new = try ErrcatRunner.run(["merge"] + arguments, stdin: stdin)
        let reference = try ErrcatRunner.run(["merge"] + arguments, stdin: stdin, entry: ReferenceMerge.entry)
        #expect(new.status == reference.status, "\(context): status \(new.status), reference \(reference.status)")
        #expect(new.errors == reference.errors, "\(context)")
        #expect(
            new.stdout == reference.stdout,
            "\(context): output differs (\(new.stdout.count) bytes, reference \(reference.stdout.count))")
        return new.status
    }

    @Test("random summaries, respelled and damaged: the merge prints what the reference prints")
    func randomSummaries() throws {
        let catalogs = [try CatalogFacts(path: nil), try CatalogFacts(path: Self.smallCatalog)]
        var generator = Generator(random: SplitMix64(seed: Self.seed))
        let directory = try ErrcatRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var counts = ScanCounts()
        var statuses: [Int32: Int] = [:]
        var files = 0
        for number in 0..<Self.caseCount {
            let facts = generator.chance(80) ? catalogs[0] : catalogs[1]
            var arguments: [String] = facts.path.map { ["--catalog", $0] } ?? []
            if generator.chance(50) { arguments += ["--top", String(generator.pick([0, 1, 3, 10, 1000]))] }
            if generator.chance(20) { arguments.append("--text") }
            var stdin: Data? = nil
            for index in 0..<(1 + Int(generator.next(4))) {
                let other = generator.chance(5) ? catalogs[1 - (facts.path == nil ? 0 : 1)] : facts
                let members = generator.summary(other)
                let canonical = generator.chance(50)
                var bytes = generator.render(members, canonical: canonical)
                let damaged = generator.chance(35)
                if damaged { bytes = generator.damage(bytes) }
                let context = "seed \(Self.seed), case \(number), file \(index)"
                Self.checkScanner(
                    bytes, facts: facts, mustRead: canonical && !damaged && other.path == facts.path, context: context,
                    counts: &counts)
                files += 1
                if stdin == nil && generator.chance(10) {
                    stdin = Data(bytes)
                    arguments.append("-")
                } else {
                    let url = directory.appendingPathComponent("case\(number)-\(index).json")
                    try Data(bytes).write(to: url)
                    arguments.append(url.path)
                }
            }
            if generator.chance(3) { arguments.append(directory.appendingPathComponent("missing.json").path) }
            let context = "seed \(Self.seed), case \(number): merge \(arguments.joined(separator: " "))"
            let status = try Self.compare(arguments, stdin: stdin, context: context)
            statuses[status, default: 0] += 1
        }
        #expect(counts.read > files / 8, "the scanner read too few summaries: \(counts)")
        #expect((statuses[0] ?? 0) > Self.caseCount / 10 && (statuses[1] ?? 0) > Self.caseCount / 10, "\(statuses)")
        print(
            "merge differential test: seed \(Self.seed), \(Self.caseCount) merges (exit 0: \(statuses[0] ?? 0), "
                + "exit 1: \(statuses[1] ?? 0)), \(files) summaries: \(counts.read) read by the scanner, "
                + "\(counts.fellBack) handed to SummaryFile.read (\(counts.fellBackValid) of them valid)")
    }

    // MARK: Named hostile inputs

    /// A small summary errcat wrote.
    static func baseSummary() throws -> String {
        let result = try ErrcatRunner.run(
            ["classify", "--json", "--quiet", "--max-errors", "0", "--top", "2", "-"],
            stdin: Data(
                ["11001", "0", "0", "-5", "9223372036854775807", "x", "11002", "20000000"].joined(separator: "\n").utf8)
        )
        try #require(result.status == 0)
        return result.output
    }

    static func replacing(_ text: String, _ from: String, _ to: String) -> String {
        text.replacingOccurrences(of: from, with: to)
    }

    @Test("hostile summaries: the same located errors as the reference")
    func hostile() throws {
        let base = try Self.baseSummary()
        let facts = try CatalogFacts(path: nil)
        var documents: [(String, [UInt8])] = [
            ("base", Array(base.utf8)),
            ("empty", []),
            ("whitespace only", Array(" \n".utf8)),
            ("not JSON", Array("summary".utf8)),
            ("an array", Array("[]".utf8)),
            ("empty object", Array("{}".utf8)),
            ("trailing garbage", Array((base + "x").utf8)),
            ("two documents", Array((base + base).utf8)),
            ("byte order mark", [0xEF, 0xBB, 0xBF] + Array(base.utf8)),
            ("NUL at the end", Array(base.utf8) + [0]),
            ("wrong schema", Array(Self.replacing(base, "errcat-summary/1", "errcat-summary/2").utf8)),
            ("escaped schema", Array(Self.replacing(base, "errcat-summary/1", "errcat-summary\\/1").utf8)),
            ("escaped member", Array(Self.replacing(base, "\"total\"", "\"t\\u006ftal\"").utf8)),
            ("unknown member", Array(Self.replacing(base, "\"total\"", "\"extra\":{},\"total\"").utf8)),
            ("repeated member", Array(Self.replacing(base, "\"total\"", "\"total\":0,\"total\"").utf8)),
            ("repeated codes member", Array(Self.replacing(base, "\"codes\"", "\"codes\":[],\"codes\"").utf8)),
            ("other hash", Array(Self.replacing(base, facts.table.identity, "fnv1a64:0000000000000000").utf8)),
            (
                "catalog name an object",
                Array(Self.replacing(base, "\"name\":\"default\"", "\"name\":{\"a\":[1]}").utf8)
            ),
            ("catalog name missing", Array(Self.replacing(base, "\"name\":\"default\",", "").utf8)),
            ("catalog hash repeated", Array(Self.replacing(base, "\"name\":\"default\"", "\"hash\":\"x\"").utf8)),
            ("catalog name with a control byte", Array(Self.replacing(base, "\"default\"", "\"de\u{1}fault\"").utf8)),
            ("negative zero count", Array(Self.replacing(base, "\"untracked\":0", "\"untracked\":-0").utf8)),
            ("fraction count", Array(Self.replacing(base, "\"untracked\":0", "\"untracked\":0.0").utf8)),
            ("exponent count", Array(Self.replacing(base, "\"untracked\":0", "\"untracked\":0e0").utf8)),
            ("leading zero", Array(Self.replacing(base, "\"untracked\":0", "\"untracked\":00").utf8)),
            ("string count", Array(Self.replacing(base, "\"untracked\":0", "\"untracked\":\"0\"").utf8)),
            (
                "count too large",
                Array(Self.replacing(base, "\"untracked\":0", "\"untracked\":9223372036854775808").utf8)
            ),
            ("unknown module", Array(Self.replacing(base, "\"account\":", "\"acount\":").utf8)),
            ("escaped module", Array(Self.replacing(base, "\"account\":", "\"accoun\\u0074\":").utf8)),
            ("module with NUL escape", Array(Self.replacing(base, "\"account\":", "\"account\\u0000x\":").utf8)),
            ("repeated tier", Array(Self.replacing(base, "\"base\":", "\"base\":7,\"base\":").utf8)),
            ("repeated module", Array(Self.replacing(base, "\"account\":", "\"account\":5,\"account\":").utf8)),
            (
                "repeated reason",
                Array(Self.replacing(base, "{\"not a code\":", "{\"not a code\":0,\"not a code\":").utf8)
            ),
            ("unknown tier", Array(Self.replacing(base, "\"base\":", "\"bass\":").utf8)),
            ("codes out of order", Array(Self.replacing(base, "[-5,1],[0,2]", "[0,2],[-5,1]").utf8)),
            ("code repeated", Array(Self.replacing(base, "[-5,1],[0,2]", "[0,1],[0,2]").utf8)),
            ("pair of three", Array(Self.replacing(base, "[-5,1]", "[-5,1,0]").utf8)),
            ("pair of one", Array(Self.replacing(base, "[-5,1]", "[-5]").utf8)),
            ("code a string", Array(Self.replacing(base, "[-5,1]", "[\"-5\",1]").utf8)),
            ("code a fraction", Array(Self.replacing(base, "[-5,1]", "[-5.0,1]").utf8)),
            ("code negative zero", Array(Self.replacing(base, "[-5,1],[0,2]", "[-5,1],[-0,2]").utf8)),
            ("code below Int64", Array(Self.replacing(base, "[-5,1]", "[-9223372036854775809,1]").utf8)),
            (
                "last code below Int64",
                Array(Self.replacing(base, "[9223372036854775807,1]", "[-9223372036854775809,1]").utf8)
            ),
            (
                "last code above Int64",
                Array(Self.replacing(base, "[9223372036854775807,1]", "[9223372036854775808,1]").utf8)
            ),
            ("lowest code", Array(Self.replacing(base, "[-5,1]", "[-9223372036854775808,1]").utf8)),
            ("codes with spaces", Array(Self.replacing(base, "[-5,1],[0,2]", "[ -5 ,\n1 ] ,\t[0,2\r]").utf8)),
            ("codes not an array", Array(Self.replacing(base, "\"codes\":[", "\"codes\":{\"a\":[").utf8) + [0x7D]),
            ("top with U+FFFD", Array(Self.replacing(base, "\"top\":[", "\"top\":[\"\u{FFFD}\",").utf8)),
        ]
        // Bytes no string may hold, in a value the merge skips and in a key.
        let invalidUTF8: [[UInt8]] = [[0xC3], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF], [0xC0, 0xAF]]
        for (index, bad) in invalidUTF8.enumerated() {
            let top = Array(Self.replacing(base, "\"top\":[", "\"top\":[\"@\",").utf8)
            let at = top.firstIndex(of: UInt8(ascii: "@"))!
            documents.append(
                ("invalid UTF-8 \(index) in a top string", Array(top[..<at]) + bad + Array(top[(at + 1)...])))
            let key = Array(Self.replacing(base, "\"account\":", "\"acc@\":").utf8)
            let keyAt = key.firstIndex(of: UInt8(ascii: "@"))!
            documents.append(
                ("invalid UTF-8 \(index) in a module name", Array(key[..<keyAt]) + bad + Array(key[(keyAt + 1)...])))
        }
        // Nesting around the limit of 512 levels, in `top` (the root object is level 1).
        for levels in [509, 510, 511, 512] {
            let nested = String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
            documents.append(
                ("top nested \(levels)", Array(Self.replacing(base, "\"top\":[", "\"top\":[\(nested),").utf8)))
            let objects = String(repeating: "{\"a\":", count: levels) + "1" + String(repeating: "}", count: levels)
            documents.append(
                (
                    "catalog name nested \(levels)",
                    Array(Self.replacing(base, "\"name\":\"default\"", "\"name\":\(objects)").utf8)
                ))
        }
        let directory = try ErrcatRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var counts = ScanCounts()
        let good = directory.appendingPathComponent("good.json")
        try Data(base.utf8).write(to: good)
        for (index, (name, bytes)) in documents.enumerated() {
            Self.checkScanner(bytes, facts: facts, mustRead: index == 0, context: name, counts: &counts)
            let url = directory.appendingPathComponent("hostile-\(index).json")
            try Data(bytes).write(to: url)
            try Self.compare([good.path, url.path], context: name)
            try Self.compare(["--text", url.path, good.path], context: name)
            try Self.compare(["-"], stdin: Data(bytes), context: "\(name) on stdin")
        }
        // Every prefix and every one-byte deletion of the summary, to the scanner alone.
        let bytes = Array(base.utf8)
        for length in 0..<bytes.count {
            Self.checkScanner(
                Array(bytes.prefix(length)), facts: facts, mustRead: false, context: "prefix \(length)", counts: &counts
            )
            var deleted = bytes
            deleted.remove(at: length)
            Self.checkScanner(
                deleted, facts: facts, mustRead: false, context: "without byte \(length)", counts: &counts)
        }
        #expect(counts.read >= 3, "\(counts)")
    }

    @Test("counts that overflow 64 bits: refused as the reference refuses them, after a malformed file's own error")
    func overflow() throws {
        let facts = try CatalogFacts(path: nil)
        let modules = facts.moduleNames.map { "\"\($0)\":0" }.joined(separator: ",")
        /// A summary of `valid` lines, all unknown, with these codes; SummaryFile.read adds the
        /// codes' counts with wrapping, as `valid` is given here.
        func summary(valid: UInt64, codes: [(Int64, UInt64)]) -> String {
            """
            {"schema":"errcat-summary/1","catalog":{"name":"default","hash":"\(facts.table.identity)"},\
            "total":\(valid),"valid":\(valid),"invalid":0,"invalidReasons":{},\
            "tiers":{"success":0,"base":0,"module":0,"unknown":\(valid)},"modules":{\(modules)},\
            "unrecognised":{\(modules)},"top":[],"untracked":0,\
            "codes":[\(codes.map { "[\($0.0),\($0.1)]" }.joined(separator: ","))]}
            """
        }
        let maximum = UInt64(Int64.max)
        // Three codes of Int64.max lines: "valid" is their sum wrapped, 2^63 - 3.
        let large = summary(valid: maximum &* 3, codes: [(1, maximum), (2, maximum), (3, maximum)])
        // Two codes of Int64.max and one of 8 lines: 6 lines in all, wrapped; three of these
        // overflow in the codes' sums only.
        let codesOnly = summary(valid: 6, codes: [(1, maximum), (2, maximum), (3, 8)])
        let directory = try ErrcatRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func file(_ name: String, _ text: String) throws -> String {
            let url = directory.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            return url.path
        }
        let a = try file("large.json", large)
        let broken = try file("large-broken.json", large + "x")
        let c = try file("codes.json", codesOnly)
        var counts = ScanCounts()
        for text in [large, codesOnly] {
            MergeDifferentialTests.checkScanner(
                Array(text.utf8), facts: facts, mustRead: true, context: "overflow", counts: &counts)
        }
        #expect(counts.read == 2, "\(counts)")
        for arguments in [
            [a], [a, a], [a, a, a], [a, a, broken], [a, a, a, broken], [c, c], [c, c, c], [c, c, a],
        ] {
            try Self.compare(
                arguments, context: arguments.map { ($0 as NSString).lastPathComponent }.joined(separator: " "))
        }
        let refused = try ErrcatRunner.run(["merge", a, a, a])
        #expect(
            refused.status == 1 && refused.errors.hasSuffix("large.json: the counts overflow 64 bits\n"),
            "\(refused.errors)")
        let codeSums = try ErrcatRunner.run(["merge", c, c, c])
        #expect(
            codeSums.status == 1 && codeSums.errors.hasSuffix("codes.json: the counts overflow 64 bits\n"),
            "\(codeSums.errors)")
        let twice = try ErrcatRunner.run(["merge", c, c]).jsonObject()
        #expect((twice["codes"] as? [[NSNumber]])?.first?.last?.uint64Value == UInt64.max - 1)
        let malformed = try ErrcatRunner.run(["merge", a, a, broken])
        #expect(malformed.errors.contains("large-broken.json:1:"), "\(malformed.errors)")
    }

    // MARK: The parts

    @Test("code sums: the same sums as a Dictionary, an overflow refused in the same batch")
    func codeSums() {
        var random = TestRandom(seed: Self.seed &+ 77)
        for round in 0..<200 {
            let sums = CodeSums()
            var reference: [Int64: UInt64] = [:]
            var overflowed = false
            let pool =
                (0..<(1 + Int(random.next() % 5000))).map { _ in Int64(bitPattern: random.next()) % 100_000 }
                + [Int64.min, Int64.max, 0, Int64.min + 1]
            // Batches of random codes, sorted or not, and repeats of the previous batch's codes
            // (the summaries of one catalog), so that CodeSums both guesses and looks ahead.
            var codes: [Int64] = []
            for _ in 0..<(1 + Int(random.next() % 12)) where !overflowed {
                if codes.isEmpty || random.next() % 2 == 0 {
                    codes = (0..<Int(random.next() % 3000)).map { _ in pool[Int(random.next() % UInt64(pool.count))] }
                    if random.next() % 2 == 0 { codes = Array(Set(codes)).sorted() }
                }
                let counts = codes.map { _ in
                    random.next() % 4 == 0 ? random.next() >> Int(random.next() % 64) : random.next() % 10
                }
                var expected = true
                var stop = codes.count
                for (index, code) in codes.enumerated() {
                    let (sum, overflow) = reference[code, default: 0].addingReportingOverflow(counts[index])
                    if overflow {
                        expected = false
                        stop = index
                        break
                    }
                    reference[code] = sum
                }
                let added = codes.withUnsafeBufferPointer { codes in
                    counts.withUnsafeBufferPointer { counts in
                        codes.isEmpty
                            || sums.add(codes: codes.baseAddress!, counts: counts.baseAddress!, count: codes.count)
                    }
                }
                #expect(added == expected, "round \(round): overflow at pair \(stop)")
                overflowed = !expected
            }
            if !overflowed {
                let sorted = sums.sorted()
                #expect(sorted.map(\.code) == reference.keys.sorted(), "round \(round)")
                #expect(sorted.map(\.count) == reference.keys.sorted().map { reference[$0]! }, "round \(round)")
            }
        }
    }

    @Test("summary input: the bytes and errors readWholeFile gives, for files and streams around the limit")
    func input() throws {
        let directory = try ErrcatRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var random = TestRandom(seed: Self.seed &+ 5)
        let limit = 5000
        let input = SummaryInput(limit: limit)
        for size in [0, 1, 15, 16, 17, 4095, 4096, 4097, limit - 1, limit, limit + 1, 3 * limit] {
            let bytes = (0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let url = directory.appendingPathComponent("file-\(size)")
            try Data(bytes).write(to: url)
            // As a regular file, against readWholeFile.
            let expected = Result { () throws(FileError) -> [UInt8] in
                try readWholeFile(url.path, standardInput: 0, limit: limit)
            }
            let got = Result { () throws(FileError) -> [UInt8] in
                try input.read(url.path, standardInput: 0)
                let padded = input.bytes
                #expect((0..<PaddedBytes.padding).allSatisfy { padded.base[padded.count + $0] == 0 })
                return Array(padded.raw)
            }
            switch (expected, got) {
            case (.success(let a), .success(let b)): #expect(a == b, "\(size) bytes")
            case (.failure(let a), .failure(let b)): #expect(a.description == b.description, "\(size) bytes")
            default: Issue.record("\(size) bytes: readWholeFile \(expected), SummaryInput \(got)")
            }
            // As standard input that is a pipe, written 1,000 bytes at a time.
            var ends: [Int32] = [0, 0]
            try #require(pipe(&ends) == 0)
            let (readEnd, writeEnd) = (ends[0], ends[1])
            let writer = Thread {
                bytes.withUnsafeBytes { raw in
                    var offset = 0
                    while offset < raw.count {
                        let wrote = write(writeEnd, raw.baseAddress! + offset, min(1000, raw.count - offset))
                        if wrote <= 0 { break }
                        offset += wrote
                    }
                }
                close(writeEnd)
            }
            writer.start()
            let streamed = Result { () throws(FileError) -> [UInt8] in
                try input.read("-", standardInput: readEnd)
                return Array(input.bytes.raw)
            }
            var sink = [UInt8](repeating: 0, count: 4096)
            while read(readEnd, &sink, sink.count) > 0 {}
            close(readEnd)
            switch streamed {
            case .success(let read): #expect(size <= limit && read == bytes, "\(size) bytes from a pipe")
            case .failure(let error):
                #expect(
                    size > limit && error.description == "-: larger than 5,000 bytes, the limit for a catalog file",
                    "\(size) bytes from a pipe: \(error.description)")
            }
        }
        // The errors of files that cannot be read at all.
        for path in [directory.path, directory.appendingPathComponent("missing").path] {
            let expected = Result { () throws(FileError) -> [UInt8] in try readWholeFile(path, standardInput: 0) }
            let got = Result { () throws(FileError) -> Void in try input.read(path, standardInput: 0) }
            switch (expected, got) {
            case (.failure(let a), .failure(let b)): #expect(a.description == b.description)
            default: Issue.record("\(path): readWholeFile \(expected), SummaryInput \(got)")
            }
        }
    }
}

extension PaddedBytes {
    /// Calls `body` with a padded copy of `bytes`, as `SummaryInput` holds a file's bytes.
    static func withCopy<Result>(of bytes: [UInt8], _ body: (PaddedBytes) throws -> Result) rethrows -> Result {
        let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count + padding)
        defer { storage.deallocate() }
        storage.initialize(repeating: 0, count: bytes.count + padding)
        bytes.withUnsafeBufferPointer { source in
            if let start = source.baseAddress { storage.update(from: start, count: source.count) }
        }
        return try body(PaddedBytes(base: UnsafePointer(storage), count: bytes.count))
    }
}
