import SwiftErr
import SwiftErrDefaultCatalog

// Modules defined in Swift alone for the stress tests, registered on the built-in catalog in the
// tests' own registry (DefaultCatalogRegistry). Their names and ranges (12,1xx,xxx ... 12,7xx,xxx)
// are used by no other test: that registry is shared by every test of the process.

/// Flags that differ from case to case, so a mix-up between entries would show.
private func stressFlags(_ raw: Int64) -> CodeFlags {
    CodeFlags(rawValue: UInt8(truncatingIfNeeded: raw % 16))
}

enum StressAlphaCode: ModuleCode {
    case first, second, far
    case other(Int64)
    static var moduleName: String { "stressAlpha" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Stress alpha", simplifiedChinese: "压力甲") }
    static var codeRanges: [ClosedRange<Int64>] { [12_100_000...12_109_999] }
    static var listedCases: [Self] { [.first, .second, .far] }
    static func unrecognised(_ code: Int64) -> Self { .other(code) }
    static var classifier: ModuleClassifier<Self> { DefaultCatalogRegistry.classifier(for: Self.self) }
    var flags: CodeFlags { stressFlags(code) }
    var message: LocalizedText { LocalizedText(english: "alpha \(code)") }
    var code: Int64 {
        switch self {
        case .first: return 12_100_001
        case .second: return 12_100_002
        case .far: return 12_109_999
        case .other(let code): return code
        }
    }
}

enum StressBetaCode: ModuleCode {
    case low, split
    case other(Int64)
    static var moduleName: String { "stressBeta" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Stress beta") }
    /// Two ranges, one of them tiny.
    static var codeRanges: [ClosedRange<Int64>] { [12_200_000...12_209_999, 12_250_000...12_250_099] }
    static var listedCases: [Self] { [.low, .split] }
    static func unrecognised(_ code: Int64) -> Self { .other(code) }
    static var classifier: ModuleClassifier<Self> { DefaultCatalogRegistry.classifier(for: Self.self) }
    var flags: CodeFlags { stressFlags(code) }
    var message: LocalizedText { LocalizedText(english: "beta \(code)", simplifiedChinese: "乙 \(code)") }
    var code: Int64 {
        switch self {
        case .low: return 12_200_000
        case .split: return 12_250_050
        case .other(let code): return code
        }
    }
}

enum StressGammaCode: ModuleCode {
    case a, b, c
    case other(Int64)
    static var moduleName: String { "stressGamma" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Stress gamma") }
    static var codeRanges: [ClosedRange<Int64>] { [12_300_000...12_309_999] }
    static var listedCases: [Self] { [.a, .b, .c] }
    static func unrecognised(_ code: Int64) -> Self { .other(code) }
    static var classifier: ModuleClassifier<Self> { DefaultCatalogRegistry.classifier(for: Self.self) }
    var flags: CodeFlags { stressFlags(code) }
    var message: LocalizedText { LocalizedText(english: "gamma \(code)") }
    var code: Int64 {
        switch self {
        case .a: return 12_300_001
        case .b: return 12_300_003
        case .c: return 12_300_005
        case .other(let code): return code
        }
    }
}

enum StressDeltaCode: ModuleCode {
    case only
    case other(Int64)
    static var moduleName: String { "stressDelta" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Stress delta") }
    static var codeRanges: [ClosedRange<Int64>] { [12_400_000...12_409_999] }
    static var listedCases: [Self] { [.only] }
    static func unrecognised(_ code: Int64) -> Self { .other(code) }
    static var classifier: ModuleClassifier<Self> { DefaultCatalogRegistry.classifier(for: Self.self) }
    var flags: CodeFlags { stressFlags(code) }
    var message: LocalizedText { LocalizedText(english: "delta \(code)") }
    var code: Int64 {
        switch self {
        case .only: return 12_400_400
        case .other(let code): return code
        }
    }
}

enum StressEpsilonCode: ModuleCode {
    case edgeLow, edgeHigh
    case other(Int64)
    static var moduleName: String { "stressEpsilon" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Stress epsilon") }
    static var codeRanges: [ClosedRange<Int64>] { [12_500_000...12_509_999] }
    static var listedCases: [Self] { [.edgeLow, .edgeHigh] }
    static func unrecognised(_ code: Int64) -> Self { .other(code) }
    static var classifier: ModuleClassifier<Self> { DefaultCatalogRegistry.classifier(for: Self.self) }
    var flags: CodeFlags { stressFlags(code) }
    var message: LocalizedText { LocalizedText(english: "epsilon \(code)") }
    var code: Int64 {
        switch self {
        case .edgeLow: return 12_500_000
        case .edgeHigh: return 12_509_999
        case .other(let code): return code
        }
    }
}

enum StressZetaCode: ModuleCode {
    case one, two
    case other(Int64)
    static var moduleName: String { "stressZeta" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Stress zeta") }
    static var codeRanges: [ClosedRange<Int64>] { [12_600_000...12_609_999] }
    static var listedCases: [Self] { [.one, .two] }
    static func unrecognised(_ code: Int64) -> Self { .other(code) }
    static var classifier: ModuleClassifier<Self> { DefaultCatalogRegistry.classifier(for: Self.self) }
    var flags: CodeFlags { stressFlags(code) }
    var message: LocalizedText { LocalizedText(english: "zeta \(code)") }
    var code: Int64 {
        switch self {
        case .one: return 12_600_001
        case .two: return 12_600_002
        case .other(let code): return code
        }
    }
}

/// Overlaps the built-in studyGroup range (11,210,000 ... 11,219,999), so it can never be
/// registered, whatever the order: every classification through it is `.invalidCatalog`.
enum StressDoomedCode: ModuleCode {
    case clash
    case other(Int64)
    static var moduleName: String { "stressDoomed" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Stress doomed") }
    static var codeRanges: [ClosedRange<Int64>] { [11_219_000...11_219_999] }
    static var listedCases: [Self] { [.clash] }
    static func unrecognised(_ code: Int64) -> Self { .other(code) }
    static var classifier: ModuleClassifier<Self> { DefaultCatalogRegistry.classifier(for: Self.self) }
    var message: LocalizedText { LocalizedText(english: "doomed \(code)") }
    var code: Int64 {
        switch self {
        case .clash: return 11_219_001
        case .other(let code): return code
        }
    }
}

/// Classified through its own classifier, a `static let` whose catalog is built on first use
/// (by whichever task gets there first), not through the registry.
enum StressLazyCode: ModuleCode {
    case lazy
    case other(Int64)
    static var moduleName: String { "stressLazy" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Stress lazy") }
    static var codeRanges: [ClosedRange<Int64>] { [12_700_000...12_709_999] }
    static var listedCases: [Self] { [.lazy] }
    static func unrecognised(_ code: Int64) -> Self { .other(code) }
    static let classifier = ModuleClassifier<StressLazyCode>(
        building: Catalog.builtIn.definition.adding(StressLazyCode.definition))
    var flags: CodeFlags { stressFlags(code) }
    var message: LocalizedText { LocalizedText(english: "lazy \(code)") }
    var code: Int64 {
        switch self {
        case .lazy: return 12_700_007
        case .other(let code): return code
        }
    }
}
