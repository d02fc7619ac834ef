import SwiftErrCore
import SwiftErrDefaultCatalog
import SwiftErrTesting
import Testing

/// A catalog built at run time from Swift values, compared with the reference classifier.
@Suite("Catalog: building and classifying through the C core")
struct CatalogTests {
    static let homework = ModuleDefinition(
        name: "homework", title: LocalizedText(english: "Homework", simplifiedChinese: "作业"),
        ranges: [11_300_000...11_309_999, 11_400_000...11_400_099],
        codes: [
            EntryDefinition(
                code: 11_300_001, name: "lateSubmission", flags: [.showUser, .retryable],
                message: LocalizedText(english: "The submission is late.", simplifiedChinese: "提交已逾期。")),
            EntryDefinition(
                code: 11_400_050, name: "tooLarge", flags: [.fatal],
                message: LocalizedText(english: "The file is too large.")),
        ])

    static var definition: CatalogDefinition { Catalog.builtIn.definition.adding(homework) }

    @Test("built table classifies every interesting code like the reference")
    func differential() throws {
        let definition = Self.definition
        let table = try Catalog(definition)
        let reference = ReferenceClassifier(definition)
        for code in ReferenceClassifier(definition).interestingCodes() {
            let c = table.classify(code)
            #expect(ReferenceClassifier.Answer(c) == reference.classify(code), "\(code)")
            if let index = c.entryIndex {
                #expect(table.code(at: index) == code)
            }
        }
    }

    @Test("the built-in table classifies like the reference over the Swift definition")
    func builtInDifferential() {
        let reference = ReferenceClassifier(Catalog.builtIn.definition)
        for code in ReferenceClassifier(Catalog.builtIn.definition).interestingCodes(seed: 7) {
            #expect(ReferenceClassifier.Answer(Catalog.builtIn.classify(code)) == reference.classify(code), "\(code)")
        }
    }

    @Test("batch classification equals one-by-one classification")
    func batch() throws {
        let table = try Catalog(Self.definition)
        let codes = ReferenceClassifier(Self.definition).interestingCodes(seed: 99, randomCount: 5000)
        let batch = table.classify(codes)
        #expect(batch.count == codes.count)
        for (code, result) in zip(codes, batch) {
            #expect(result == table.classify(code), "\(code)")
        }
        // Into a reused array, from a slice and from a non-contiguous collection.
        var reused = [Classification](repeating: .unknown, count: 3)
        table.classify(codes[1...], into: &reused)
        #expect(reused == Array(batch[1...]))
        table.classify(codes.lazy.map { $0 }, into: &reused)
        #expect(reused == batch)
    }

    @Test("tally counts match counting the single classifications")
    func tally() throws {
        let table = try Catalog(Self.definition)
        let codes = ReferenceClassifier(Self.definition).interestingCodes(seed: 3, randomCount: 3000)
        var expected = CodeTally(moduleCount: table.moduleCount)
        for code in codes {
            let c = table.classify(code)
            expected.total += 1
            switch c.tier {
            case .unknown: expected.unknown += 1
            case .success: expected.success += 1
            case .base: expected.base += 1
            case .module:
                expected.module += 1
                expected.perModule[Int(c.moduleID)] += 1
                if !c.isExact { expected.unrecognised += 1 }
            }
        }
        #expect(table.tally(codes) == expected)
        // In two chunks, the counts add up.
        var chunked = CodeTally(moduleCount: table.moduleCount)
        let half = codes.count / 2
        table.tally(codes[..<half], into: &chunked)
        table.tally(codes[half...], into: &chunked)
        #expect(chunked == expected)
    }

    @Test("text lookups read the strings copied into the table")
    func text() throws {
        let table = try Catalog(Self.definition)
        let id = try #require(table.moduleID(named: "homework"))
        #expect(id == 8)
        #expect(table.moduleName(id) == "homework")
        #expect(table.moduleTitle(id, in: .simplifiedChinese) == "作业")
        #expect(table.moduleRanges(id) == [11_300_000...11_309_999, 11_400_000...11_400_099])
        #expect(table.module(id, isNamed: "homework"))
        #expect(!table.module(id, isNamed: "homewor"))
        #expect(!table.module(id, isNamed: "homeworks"))
        let late = table.classify(11_300_001)
        let index = try #require(late.entryIndex)
        #expect(table.entryName(at: index) == "lateSubmission")
        #expect(table.entryMessage(at: index, in: .simplifiedChinese) == "提交已逾期。")
        // A missing translation falls back to English.
        let large = try #require(table.classify(11_400_050).entryIndex)
        #expect(table.entryMessage(at: large, in: .simplifiedChinese) == "The file is too large.")
        #expect(table.describe(11_300_999, in: .english).contains("11300999"))
        #expect(table.entryName(at: UInt32(table.entryCount)) == nil)
        #expect(table.moduleName(0) == nil)
        #expect(table.moduleID(named: "nope") == nil)
        // Reading the table back gives the definition (entries in code order).
        let back = table.definition
        #expect(back.modules.last?.codes.map(\.name) == ["lateSubmission", "tooLarge"])
        #expect(back.modules.last?.title == Self.homework.title)
    }

    @Test("describe returns long texts whole")
    func longText() throws {
        let long = String(repeating: "很长的消息", count: 200)
        var definition = Catalog.builtIn.definition.withoutModules
        definition.base.append(EntryDefinition(code: 77, name: "long", message: LocalizedText(english: long)))
        let table = try Catalog(definition)
        #expect(table.describe(77, in: .english) == long)
    }

    @Test(
        "flag names round-trip through the C core's names",
        arguments: [
            (CodeFlags.retryable, "retryable"), (.reauthenticate, "reauthenticate"), (.showUser, "showUser"),
            (.fatal, "fatal"),
        ])
    func flagNames(flag: CodeFlags, name: String) {
        #expect(CodeFlags(name: name) == flag)
        #expect(flag.names == [name])
    }

    @Test("unknown flag names are rejected and combined flags list every name")
    func flagNameEdges() {
        #expect(CodeFlags(name: "retry") == nil)
        #expect(CodeFlags([.reauthenticate, .showUser]).names == ["reauthenticate", "showUser"])
    }

    @Test(
        "language matching keeps the identifier's tag; the built-in catalog's language for it follows the rule",
        arguments: [
            ("zh-Hans", "zh-Hans", Language.simplifiedChinese), ("zh_CN", "zh-CN", .simplifiedChinese),
            ("zh-Hans-CN", "zh-Hans-CN", .simplifiedChinese), ("ZH", "zh", .simplifiedChinese),
            ("zh-Hant-TW", "zh-Hant-TW", .traditionalChinese), ("zh_TW", "zh-TW", .traditionalChinese),
            ("zh-HK", "zh-HK", .traditionalChinese), ("zh_MO.UTF-8", "zh-MO", .traditionalChinese),
            ("hi_IN", "hi-IN", .hindi), ("HI", "hi", .hindi), ("en-US", "en-US", .english), ("fr", "fr", .english),
            ("", "en", .english), ("C", "en", .english),
        ])
    func languageMatching(identifier: String, tag: String, builtIn: Language) {
        let language = Language.matching(identifier: identifier)
        #expect(language.tag == tag)
        #expect((language.bestMatch(in: Language.builtIn) ?? .english) == builtIn)
    }
}
