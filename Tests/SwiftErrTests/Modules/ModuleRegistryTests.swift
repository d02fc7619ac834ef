import SwiftErr
import SwiftErrDefaultCatalog
import SwiftErrTesting
import Testing

/// Modules written in Swift alone are classified through a C table assembled once, lazily, on top
/// of the installed catalog (here the built-in one, in a registry of the tests' own:
/// `DefaultCatalogRegistry`).
@Suite("Registry: Swift-defined modules through the C core")
struct ModuleRegistryTests {
    @Test("a Swift-only module is classified through the C table")
    func swiftOnlyModule() throws {
        let catalog = try DefaultCatalogRegistry.register(HomeworkCode.self)
        let id = try #require(catalog.moduleID(named: "homework"))
        #expect(HomeworkCode.classify(11_300_001) == .module(.lateSubmission))
        let classification = HomeworkCode.classifier.classification(of: 11_300_001)
        #expect(classification.tier == .module)
        #expect(classification.moduleID == id)
        #expect(classification.isExact)
        #expect(classification.flags == [.showUser, .retryable])
        #expect(catalog.describe(11_300_001, in: .simplifiedChinese) == "作业已逾期提交。")
        #expect(HomeworkCode.classify(11_300_777) == .module(.other(11_300_777)))
        #expect(HomeworkCode.classify(11001) == .base(.tokenExpire))
        #expect(HomeworkCode.classify(11_210_005) == .unexpected(11_210_005))
        #expect(ModuleRespError<HomeworkCode>.module(.lateSubmission).isRetryable)
        // The registry's catalog still holds the built-in modules, classified the same way.
        #expect(catalog.classify(11_210_005).moduleID == catalog.moduleID(named: "studyGroup"))
    }

    @Test("a cached registry classifier agrees with the default lookup, code by code")
    func cachedClassifier() throws {
        let cached = CachedHomeworkCode.classifier
        let catalog = try #require(cached.catalog)
        #expect(cached.module == catalog.moduleID(named: "cachedHomework"))
        #expect(cached.failure == nil)
        let reference = ReferenceClassifier(Catalog.builtIn.definition.adding(CachedHomeworkCode.definition))
        for code in reference.interestingCodes(seed: 5, randomCount: 500) {
            #expect(
                cached.classify(code) == DefaultCatalogRegistry.classifier(for: CachedHomeworkCode.self).classify(code),
                "\(code)")
            // The registry's catalog holds other test modules too: compare tiers, not module ids.
            #expect(cached.classification(of: code).tier == reference.classify(code).tier, "\(code)")
        }
        #expect(CachedHomeworkCode.classify(11_320_001) == .module(.first))
    }

    @Test("concurrent first use from many tasks assembles one catalog")
    func concurrentFirstUse() async {
        let results = await withTaskGroup(
            of: (ObjectIdentifier?, Bool).self, returning: [(ObjectIdentifier?, Bool)].self
        ) { group in
            for i in 0..<256 {
                group.addTask {
                    let code: Int64 = i % 2 == 0 ? 11_310_002 : 11_319_999
                    let outcome = FirstUseCode.classify(code)
                    let expected: CodeOutcome<FirstUseCode> =
                        i % 2 == 0 ? .module(.second) : .module(.other(11_319_999))
                    return (FirstUseCode.catalog.map(ObjectIdentifier.init), outcome == expected)
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 256)
        #expect(results.allSatisfy { $0.1 })
        #expect(Set(results.map(\.0)).count == 1, "every task must see the same catalog")
        #expect(FirstUseCode.classifier.failure == nil)
    }

    @Test("a module overlapping a built-in module's range is rejected, naming both")
    func overlapWithBuiltIn() throws {
        #expect(throws: CatalogError.self) { try DefaultCatalogRegistry.register(OverlappingCode.self) }
        let failure = try #require(OverlappingCode.classifier.failure)
        #expect(failure.status == .rangeOverlap)
        #expect(failure.message.contains("overlapTest") && failure.message.contains("studyGroup"), "\(failure.message)")
        #expect(OverlappingCode.classify(11_219_500) == .invalidCatalog(failure))
        #expect(OverlappingCode.catalog == nil)
        let error = ModuleRespError<OverlappingCode>(OverlappingCode.classify(0))
        #expect(error?.isInvalidCatalog == true)
    }

    @Test("a module whose range covers a base code is rejected")
    func collidesWithBase() throws {
        let failure = try #require(BaseClashCode.classifier.failure)
        #expect(failure.status == .baseInModuleRange)
        #expect(failure.message.contains("base.tokenExpire"), "\(failure.message)")
    }

    @Test("two Swift modules claiming the same code or overlapping ranges")
    func twoSwiftModules() throws {
        try DefaultCatalogRegistry.register(PairFirstCode.self)
        let sameCode = try #require(PairSameCode.classifier.failure)
        #expect(sameCode.status == .duplicateCode)
        #expect(
            sameCode.message.contains("pairFirst.shared") && sameCode.message.contains("pairSame.copied"),
            "\(sameCode.message)")
        let overlap = try #require(PairOverlapCode.classifier.failure)
        #expect(overlap.status == .rangeOverlap)
        #expect(
            overlap.message.contains("pairFirst range") && overlap.message.contains("pairOverlap range"),
            "\(overlap.message)")
        // The first module is unaffected.
        #expect(PairFirstCode.classify(11_600_001) == .module(.shared))
    }

    @Test("a module that names a catalog not containing it gets a clear error")
    func notInCatalog() throws {
        let failure = try #require(MisplacedCode.classifier.failure)
        #expect(MisplacedCode.classify(11_700_001) == .invalidCatalog(failure))
        // A code the misplaced module lists that belongs to another module is not taken for its own.
        #expect(MisplacedCode.classify(11_210_005) == .invalidCatalog(failure))
        #expect(failure.status == .undeclaredModule)
        #expect(failure.message.contains("misplacedTest"))
        #expect(failure.message.contains("'default'"))
    }

    @Test("a second type with a registered module's name but other codes is rejected, not merged")
    func sameNameTwoTypes() throws {
        try DefaultCatalogRegistry.register(TwinFirstCode.self)
        let failure = try #require(TwinSecondCode.classifier.failure)
        #expect(failure.status == .duplicateModuleName)
        #expect(TwinSecondCode.classify(11_330_002) == .invalidCatalog(failure))
        #expect(TwinFirstCode.classify(11_330_001) == .module(.one))
    }

    @Test("registering a built-in module's name with other contents is rejected")
    func sameNameOtherContents() throws {
        let failure = try #require(ImpostorCode.classifier.failure)
        #expect(failure.status == .duplicateModuleName)
        #expect(failure.message.contains("'tag'"))
    }
}

// MARK: - Test modules (each defined in Swift alone)

enum HomeworkCode: ModuleCode {
    case lateSubmission, missingAttachment
    case other(Int64)

    static var moduleName: String { "homework" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Homework", simplifiedChinese: "作业") }
    static var codeRanges: [ClosedRange<Int64>] { [11_300_000...11_309_999] }
    static var listedCases: [Self] { [.lateSubmission, .missingAttachment] }
    static func unrecognised(_ code: Int64) -> Self { .other(code) }
    static var classifier: ModuleClassifier<Self> { DefaultCatalogRegistry.classifier(for: Self.self) }

    var flags: CodeFlags {
        switch self {
        case .lateSubmission: return [.showUser, .retryable]
        case .missingAttachment: return [.showUser]
        case .other: return []
        }
    }

    var message: LocalizedText {
        switch self {
        case .lateSubmission:
            return LocalizedText(english: "The homework was submitted late.", simplifiedChinese: "作业已逾期提交。")
        case .missingAttachment: return LocalizedText(english: "The attachment is missing.", simplifiedChinese: "缺少附件。")
        case .other: return Self.unrecognisedMessage
        }
    }
    var code: Int64 {
        switch self {
        case .lateSubmission: return 11_300_001
        case .missingAttachment: return 11_300_002
        case .other(let code): return code
        }
    }
}

enum CachedHomeworkCode: ModuleCode {
    case first
    case other(Int64)

    static var moduleName: String { "cachedHomework" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Cached homework") }
    static var codeRanges: [ClosedRange<Int64>] { [11_320_000...11_320_999] }
    static var listedCases: [Self] { [.first] }
    static func unrecognised(_ code: Int64) -> Self { .other(code) }
    static let classifier = DefaultCatalogRegistry.classifier(for: CachedHomeworkCode.self)
    var message: LocalizedText { LocalizedText(english: "First") }
    var code: Int64 {
        switch self {
        case .first: return 11_320_001
        case .other(let code): return code
        }
    }
}

enum TwinFirstCode: ModuleCode {
    case one
    case other(Int64)

    static var moduleName: String { "twinTest" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Twin") }
    static var codeRanges: [ClosedRange<Int64>] { [11_330_000...11_330_999] }
    static var listedCases: [Self] { [.one] }
    static func unrecognised(_ code: Int64) -> Self { .other(code) }
    static var classifier: ModuleClassifier<Self> { DefaultCatalogRegistry.classifier(for: Self.self) }
    var message: LocalizedText { LocalizedText(english: "One") }
    var code: Int64 {
        switch self {
        case .one: return 11_330_001
        case .other(let code): return code
        }
    }
}

enum TwinSecondCode: ModuleCode {
    case two
    case other(Int64)

    static var moduleName: String { "twinTest" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Twin") }
    static var codeRanges: [ClosedRange<Int64>] { [11_330_000...11_330_999] }
    static var listedCases: [Self] { [.two] }
    static func unrecognised(_ code: Int64) -> Self { .other(code) }
    static var classifier: ModuleClassifier<Self> { DefaultCatalogRegistry.classifier(for: Self.self) }
    var message: LocalizedText { LocalizedText(english: "Two") }
    var code: Int64 {
        switch self {
        case .two: return 11_330_002
        case .other(let code): return code
        }
    }
}

enum FirstUseCode: ModuleCode {
    case first, second
    case other(Int64)

    static var moduleName: String { "firstUseTest" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "First use") }
    static var codeRanges: [ClosedRange<Int64>] { [11_310_000...11_319_999] }
    static var listedCases: [Self] { [.first, .second] }
    static func unrecognised(_ code: Int64) -> Self { .other(code) }
    static var classifier: ModuleClassifier<Self> { DefaultCatalogRegistry.classifier(for: Self.self) }
    var message: LocalizedText { LocalizedText(english: "First use \(code)") }
    var code: Int64 {
        switch self {
        case .first: return 11_310_001
        case .second: return 11_310_002
        case .other(let code): return code
        }
    }
}

enum OverlappingCode: ModuleCode {
    case clash
    case other(Int64)

    static var moduleName: String { "overlapTest" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Overlap") }
    static var codeRanges: [ClosedRange<Int64>] { [11_219_000...11_220_999] }
    static var listedCases: [Self] { [.clash] }
    static func unrecognised(_ code: Int64) -> Self { .other(code) }
    static var classifier: ModuleClassifier<Self> { DefaultCatalogRegistry.classifier(for: Self.self) }
    var message: LocalizedText { LocalizedText(english: "Overlap") }
    var code: Int64 {
        switch self {
        case .clash: return 11_219_500
        case .other(let code): return code
        }
    }
}

enum BaseClashCode: ModuleCode {
    case clash
    case other(Int64)

    static var moduleName: String { "baseClashTest" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Base clash") }
    static var codeRanges: [ClosedRange<Int64>] { [10_990...11_001] }
    static var listedCases: [Self] { [.clash] }
    static func unrecognised(_ code: Int64) -> Self { .other(code) }
    static var classifier: ModuleClassifier<Self> { DefaultCatalogRegistry.classifier(for: Self.self) }
    var message: LocalizedText { LocalizedText(english: "Base clash") }
    var code: Int64 {
        switch self {
        case .clash: return 11_000
        case .other(let code): return code
        }
    }
}

enum PairFirstCode: ModuleCode {
    case shared
    case other(Int64)

    static var moduleName: String { "pairFirst" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Pair first") }
    static var codeRanges: [ClosedRange<Int64>] { [11_600_000...11_600_999] }
    static var listedCases: [Self] { [.shared] }
    static func unrecognised(_ code: Int64) -> Self { .other(code) }
    static var classifier: ModuleClassifier<Self> { DefaultCatalogRegistry.classifier(for: Self.self) }
    var message: LocalizedText { LocalizedText(english: "Shared") }
    var code: Int64 {
        switch self {
        case .shared: return 11_600_001
        case .other(let code): return code
        }
    }
}

enum PairSameCode: ModuleCode {
    case copied
    case other(Int64)

    static var moduleName: String { "pairSame" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Pair same") }
    static var codeRanges: [ClosedRange<Int64>] { [11_601_000...11_601_999] }
    static var listedCases: [Self] { [.copied] }
    static func unrecognised(_ code: Int64) -> Self { .other(code) }
    static var classifier: ModuleClassifier<Self> { DefaultCatalogRegistry.classifier(for: Self.self) }
    var message: LocalizedText { LocalizedText(english: "Copied") }
    var code: Int64 {
        switch self {
        case .copied: return 11_600_001
        case .other(let code): return code
        }
    }
}

enum PairOverlapCode: ModuleCode {
    case inside
    case other(Int64)

    static var moduleName: String { "pairOverlap" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Pair overlap") }
    static var codeRanges: [ClosedRange<Int64>] { [11_600_900...11_602_999] }
    static var listedCases: [Self] { [.inside] }
    static func unrecognised(_ code: Int64) -> Self { .other(code) }
    static var classifier: ModuleClassifier<Self> { DefaultCatalogRegistry.classifier(for: Self.self) }
    var message: LocalizedText { LocalizedText(english: "Inside") }
    var code: Int64 {
        switch self {
        case .inside: return 11_600_950
        case .other(let code): return code
        }
    }
}

enum MisplacedCode: ModuleCode {
    case lost, borrowed
    case other(Int64)

    static var moduleName: String { "misplacedTest" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Misplaced") }
    static var codeRanges: [ClosedRange<Int64>] { [11_700_000...11_700_999] }
    static var listedCases: [Self] { [.lost, .borrowed] }
    static func unrecognised(_ code: Int64) -> Self { .other(code) }
    static let classifier = ModuleClassifier<Self>(catalog: .builtIn)
    var message: LocalizedText { LocalizedText(english: "Lost") }
    var code: Int64 {
        switch self {
        case .lost: return 11_700_001
        case .borrowed: return 11_210_005
        case .other(let code): return code
        }
    }
}

enum ImpostorCode: ModuleCode {
    case fake
    case other(Int64)

    static var moduleName: String { "tag" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Tag") }
    static var codeRanges: [ClosedRange<Int64>] { [11_160_000...11_169_999] }
    static var listedCases: [Self] { [.fake] }
    static func unrecognised(_ code: Int64) -> Self { .other(code) }
    static var classifier: ModuleClassifier<Self> { DefaultCatalogRegistry.classifier(for: Self.self) }
    var message: LocalizedText { LocalizedText(english: "Not the real tag module") }
    var code: Int64 {
        switch self {
        case .fake: return 11_160_002
        case .other(let code): return code
        }
    }
}
