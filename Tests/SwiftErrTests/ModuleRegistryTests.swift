import Testing
import SwiftErr

/// Modules written in Swift alone are classified through a C table assembled once, lazily.
@Suite("ModuleRegistry: Swift-defined modules through the C core")
struct ModuleRegistryTests {
    @Test("a Swift-only module is classified through the C table")
    func swiftOnlyModule() throws {
        let catalog = try ModuleRegistry.register(HomeworkCode.self)
        let table = try #require(catalog.table)
        let id = try #require(table.moduleID(named: "homework"))
        let classified = HomeworkCode.classify(11_300_001)
        #expect(classified.outcome == .module(.lateSubmission))
        #expect(classified.classification.tier == .module)
        #expect(classified.classification.moduleID == id)
        #expect(classified.classification.isExact)
        #expect(classified.flags == [.showUser, .retryable])
        #expect(table.describe(11_300_001, in: .simplifiedChinese) == "作业已逾期提交。")
        #expect(HomeworkCode.classify(11_300_777).outcome == .module(.other))
        #expect(HomeworkCode.classify(11001).outcome == .base(.tokenExpire))
        #expect(HomeworkCode.classify(11_210_005).outcome == .unexpected(11_210_005))
        #expect(ModuleRespError<HomeworkCode>.module(.lateSubmission).isRetryable)
        // The registry's catalog still holds the built-in modules, classified the same way.
        #expect(table.classify(11_210_005).moduleID == table.moduleID(named: "studyGroup"))
    }

    @Test("a cached registry classifier agrees with the default lookup, code by code")
    func cachedClassifier() throws {
        let cached = CachedHomeworkCode.classifier
        let table = try #require(cached.catalog.table)
        #expect(cached.module == table.moduleID(named: "cachedHomework"))
        #expect(cached.failure == nil)
        for code in interestingCodes(for: CatalogDefinition.standard.adding(CachedHomeworkCode.definition), seed: 5, randomCount: 500) {
            #expect(cached.classify(code) == ModuleRegistry.classifier(for: CachedHomeworkCode.self).classify(code), "\(code)")
            #expect(cached.classify(code) == CachedHomeworkCode.classify(code, in: cached.catalog), "\(code)")
        }
        #expect(CachedHomeworkCode.classify(11_320_001).outcome == .module(.first))
    }

    @Test("concurrent first use from many tasks assembles one catalog")
    func concurrentFirstUse() async {
        let results = await withTaskGroup(of: (ObjectIdentifier, Bool).self, returning: [(ObjectIdentifier, Bool)].self) { group in
            for i in 0..<256 {
                group.addTask {
                    let code: Int64 = i % 2 == 0 ? 11_310_002 : 11_319_999
                    let outcome = FirstUseCode.classify(code).outcome
                    let expected: CodeOutcome<FirstUseCode> = i % 2 == 0 ? .module(.second) : .module(.other)
                    return (ObjectIdentifier(FirstUseCode.catalog), outcome == expected)
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 256)
        #expect(results.allSatisfy { $0.1 })
        #expect(Set(results.map(\.0)).count == 1, "every task must see the same catalog")
        #expect(FirstUseCode.catalog.failure == nil)
    }

    @Test("a module overlapping a built-in module's range is rejected, naming both")
    func overlapWithBuiltIn() throws {
        #expect(throws: CatalogError.self) { try ModuleRegistry.register(OverlappingCode.self) }
        let failure = try #require(OverlappingCode.catalog.failure)
        #expect(failure.status == .rangeOverlap)
        #expect(failure.message.contains("overlapTest") && failure.message.contains("studyGroup"), "\(failure.message)")
        #expect(OverlappingCode.classify(11_219_500).outcome == .invalidCatalog)
        #expect(OverlappingCode.classifier.failure == failure)
        let error = ModuleRespError<OverlappingCode>(OverlappingCode.classify(0))
        #expect(error?.isInvalidCatalog == true)
    }

    @Test("a module whose range covers a base code is rejected")
    func collidesWithBase() throws {
        let failure = try #require(BaseClashCode.catalog.failure)
        #expect(failure.status == .baseInModuleRange)
        #expect(failure.message.contains("base.tokenExpire"), "\(failure.message)")
    }

    @Test("two Swift modules claiming the same code or overlapping ranges")
    func twoSwiftModules() throws {
        try ModuleRegistry.register(PairFirstCode.self)
        let sameCode = try #require(PairSameCode.catalog.failure)
        #expect(sameCode.status == .duplicateCode)
        #expect(sameCode.message.contains("pairFirst.shared") && sameCode.message.contains("pairSame.copied"), "\(sameCode.message)")
        let overlap = try #require(PairOverlapCode.catalog.failure)
        #expect(overlap.status == .rangeOverlap)
        #expect(overlap.message.contains("pairFirst range") && overlap.message.contains("pairOverlap range"), "\(overlap.message)")
        // The first module is unaffected.
        #expect(PairFirstCode.classify(11_600_001).outcome == .module(.shared))
    }

    @Test("a module that names a catalog not containing it gets a clear error")
    func notInCatalog() throws {
        #expect(MisplacedCode.classify(11_700_001).outcome == .invalidCatalog)
        // A code the misplaced module lists that belongs to another module is not taken for its own.
        #expect(MisplacedCode.classify(11_210_005).outcome == .invalidCatalog)
        let failure = try #require(MisplacedCode.classifier.failure)
        #expect(failure.status == .undeclaredModule)
        #expect(failure.message.contains("misplacedTest"))
        #expect(failure.message.contains("'default'"))
    }

    @Test("a second type with a registered module's name but other codes is rejected, not merged")
    func sameNameTwoTypes() throws {
        try ModuleRegistry.register(TwinFirstCode.self)
        let failure = try #require(TwinSecondCode.classifier.failure)
        #expect(failure.status == .duplicateModuleName)
        #expect(TwinSecondCode.classify(11_330_002).outcome == .invalidCatalog)
        #expect(TwinFirstCode.classify(11_330_001).outcome == .module(.one))
    }

    @Test("registering a built-in module's name with other contents is rejected")
    func sameNameOtherContents() throws {
        let failure = try #require(ImpostorCode.catalog.failure)
        #expect(failure.status == .duplicateModuleName)
        #expect(failure.message.contains("'tag'"))
    }
}

// MARK: - Test modules (each defined in Swift alone)

enum HomeworkCode: Int, ModuleCode {
    case lateSubmission = 11_300_001
    case missingAttachment = 11_300_002
    case other = -99999

    static var moduleName: String { "homework" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Homework", simplifiedChinese: "作业") }
    static var codeRanges: [ClosedRange<Int64>] { [11_300_000...11_309_999] }
    static var unrecognised: Self { .other }

    var flags: CodeFlags {
        switch self {
        case .lateSubmission: return [.showUser, .retryable]
        case .missingAttachment: return [.showUser]
        case .other: return []
        }
    }

    var message: LocalizedText {
        switch self {
        case .lateSubmission: return LocalizedText(english: "The homework was submitted late.", simplifiedChinese: "作业已逾期提交。")
        case .missingAttachment: return LocalizedText(english: "The attachment is missing.", simplifiedChinese: "缺少附件。")
        case .other: return Self.unrecognisedMessage
        }
    }
}

enum CachedHomeworkCode: Int, ModuleCode {
    case first = 11_320_001
    case other = -99999

    static var moduleName: String { "cachedHomework" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Cached homework") }
    static var codeRanges: [ClosedRange<Int64>] { [11_320_000...11_320_999] }
    static var unrecognised: Self { .other }
    static let classifier = ModuleRegistry.classifier(for: CachedHomeworkCode.self)
    var message: LocalizedText { LocalizedText(english: "First") }
}

enum TwinFirstCode: Int, ModuleCode {
    case one = 11_330_001
    case other = -99999

    static var moduleName: String { "twinTest" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Twin") }
    static var codeRanges: [ClosedRange<Int64>] { [11_330_000...11_330_999] }
    static var unrecognised: Self { .other }
    var message: LocalizedText { LocalizedText(english: "One") }
}

enum TwinSecondCode: Int, ModuleCode {
    case two = 11_330_002
    case other = -99999

    static var moduleName: String { "twinTest" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Twin") }
    static var codeRanges: [ClosedRange<Int64>] { [11_330_000...11_330_999] }
    static var unrecognised: Self { .other }
    var message: LocalizedText { LocalizedText(english: "Two") }
}

enum FirstUseCode: Int, ModuleCode {
    case first = 11_310_001
    case second = 11_310_002
    case other = -99999

    static var moduleName: String { "firstUseTest" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "First use") }
    static var codeRanges: [ClosedRange<Int64>] { [11_310_000...11_319_999] }
    static var unrecognised: Self { .other }
    var message: LocalizedText { LocalizedText(english: "First use \(rawValue)") }
}

enum OverlappingCode: Int, ModuleCode {
    case clash = 11_219_500
    case other = -99999

    static var moduleName: String { "overlapTest" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Overlap") }
    static var codeRanges: [ClosedRange<Int64>] { [11_219_000...11_220_999] }
    static var unrecognised: Self { .other }
    var message: LocalizedText { LocalizedText(english: "Overlap") }
}

enum BaseClashCode: Int, ModuleCode {
    case clash = 11_000
    case other = -99999

    static var moduleName: String { "baseClashTest" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Base clash") }
    static var codeRanges: [ClosedRange<Int64>] { [10_990...11_001] }
    static var unrecognised: Self { .other }
    var message: LocalizedText { LocalizedText(english: "Base clash") }
}

enum PairFirstCode: Int, ModuleCode {
    case shared = 11_600_001
    case other = -99999

    static var moduleName: String { "pairFirst" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Pair first") }
    static var codeRanges: [ClosedRange<Int64>] { [11_600_000...11_600_999] }
    static var unrecognised: Self { .other }
    var message: LocalizedText { LocalizedText(english: "Shared") }
}

enum PairSameCode: Int, ModuleCode {
    case copied = 11_600_001
    case other = -99999

    static var moduleName: String { "pairSame" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Pair same") }
    static var codeRanges: [ClosedRange<Int64>] { [11_601_000...11_601_999] }
    static var unrecognised: Self { .other }
    var message: LocalizedText { LocalizedText(english: "Copied") }
}

enum PairOverlapCode: Int, ModuleCode {
    case inside = 11_600_950
    case other = -99999

    static var moduleName: String { "pairOverlap" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Pair overlap") }
    static var codeRanges: [ClosedRange<Int64>] { [11_600_900...11_602_999] }
    static var unrecognised: Self { .other }
    var message: LocalizedText { LocalizedText(english: "Inside") }
}

enum MisplacedCode: Int, ModuleCode {
    case lost = 11_700_001
    case borrowed = 11_210_005
    case other = -99999

    static var moduleName: String { "misplacedTest" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Misplaced") }
    static var codeRanges: [ClosedRange<Int64>] { [11_700_000...11_700_999] }
    static var unrecognised: Self { .other }
    static let classifier = ModuleClassifier<Self>(catalog: .builtIn)
    var message: LocalizedText { LocalizedText(english: "Lost") }
}

enum ImpostorCode: Int, ModuleCode {
    case fake = 11_160_002
    case other = -99999

    static var moduleName: String { "tag" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Tag") }
    static var codeRanges: [ClosedRange<Int64>] { [11_160_000...11_169_999] }
    static var unrecognised: Self { .other }
    var message: LocalizedText { LocalizedText(english: "Not the real tag module") }
}
