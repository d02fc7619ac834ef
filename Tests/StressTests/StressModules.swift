import SwiftErr

// Modules defined in Swift alone for the stress tests. Their names and ranges (12,1xx,xxx ...
// 12,7xx,xxx) are used by no other test: the module registry is process-wide and the test
// targets share one process.

/// Flags that differ from case to case, so a mix-up between entries would show.
private func stressFlags(_ raw: Int) -> CodeFlags {
    CodeFlags(rawValue: UInt8(truncatingIfNeeded: raw % 16))
}

enum StressAlphaCode: Int, ModuleCode {
    case first = 12_100_001
    case second = 12_100_002
    case far = 12_109_999
    case other = -99999
    static var moduleName: String { "stressAlpha" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Stress alpha", simplifiedChinese: "压力甲") }
    static var codeRanges: [ClosedRange<Int64>] { [12_100_000...12_109_999] }
    static var unrecognised: Self { .other }
    var flags: CodeFlags { stressFlags(rawValue) }
    var message: LocalizedText { LocalizedText(english: "alpha \(rawValue)") }
}

enum StressBetaCode: Int, ModuleCode {
    case low = 12_200_000
    case split = 12_250_050
    case other = -99999
    static var moduleName: String { "stressBeta" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Stress beta") }
    /// Two ranges, one of them tiny.
    static var codeRanges: [ClosedRange<Int64>] { [12_200_000...12_209_999, 12_250_000...12_250_099] }
    static var unrecognised: Self { .other }
    var flags: CodeFlags { stressFlags(rawValue) }
    var message: LocalizedText { LocalizedText(english: "beta \(rawValue)", simplifiedChinese: "乙 \(rawValue)") }
}

enum StressGammaCode: Int, ModuleCode {
    case a = 12_300_001
    case b = 12_300_003
    case c = 12_300_005
    case other = -99999
    static var moduleName: String { "stressGamma" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Stress gamma") }
    static var codeRanges: [ClosedRange<Int64>] { [12_300_000...12_309_999] }
    static var unrecognised: Self { .other }
    var flags: CodeFlags { stressFlags(rawValue) }
    var message: LocalizedText { LocalizedText(english: "gamma \(rawValue)") }
}

enum StressDeltaCode: Int, ModuleCode {
    case only = 12_400_400
    case other = -99999
    static var moduleName: String { "stressDelta" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Stress delta") }
    static var codeRanges: [ClosedRange<Int64>] { [12_400_000...12_409_999] }
    static var unrecognised: Self { .other }
    var flags: CodeFlags { stressFlags(rawValue) }
    var message: LocalizedText { LocalizedText(english: "delta \(rawValue)") }
}

enum StressEpsilonCode: Int, ModuleCode {
    case edgeLow = 12_500_000
    case edgeHigh = 12_509_999
    case other = -99999
    static var moduleName: String { "stressEpsilon" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Stress epsilon") }
    static var codeRanges: [ClosedRange<Int64>] { [12_500_000...12_509_999] }
    static var unrecognised: Self { .other }
    var flags: CodeFlags { stressFlags(rawValue) }
    var message: LocalizedText { LocalizedText(english: "epsilon \(rawValue)") }
}

enum StressZetaCode: Int, ModuleCode {
    case one = 12_600_001
    case two = 12_600_002
    case other = -99999
    static var moduleName: String { "stressZeta" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Stress zeta") }
    static var codeRanges: [ClosedRange<Int64>] { [12_600_000...12_609_999] }
    static var unrecognised: Self { .other }
    var flags: CodeFlags { stressFlags(rawValue) }
    var message: LocalizedText { LocalizedText(english: "zeta \(rawValue)") }
}

/// Overlaps the built-in studyGroup range (11,210,000 ... 11,219,999), so it can never be
/// registered, whatever the order: every classification through it is `.invalidCatalog`.
enum StressDoomedCode: Int, ModuleCode {
    case clash = 11_219_001
    case other = -99999
    static var moduleName: String { "stressDoomed" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Stress doomed") }
    static var codeRanges: [ClosedRange<Int64>] { [11_219_000...11_219_999] }
    static var unrecognised: Self { .other }
    var message: LocalizedText { LocalizedText(english: "doomed \(rawValue)") }
}

/// Classified through its own catalog and classifier, both `static let`s built on first use
/// (whichever task gets there first), not through the registry.
enum StressLazyCode: Int, ModuleCode {
    case lazy = 12_700_007
    case other = -99999
    static var moduleName: String { "stressLazy" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Stress lazy") }
    static var codeRanges: [ClosedRange<Int64>] { [12_700_000...12_709_999] }
    static var unrecognised: Self { .other }
    static let classifier = ModuleClassifier<StressLazyCode>(catalog: .stressLazy)
    var flags: CodeFlags { stressFlags(rawValue) }
    var message: LocalizedText { LocalizedText(english: "lazy \(rawValue)") }
}

extension ResponseCatalog {
    /// Built on first access, from whichever task gets there first.
    static let stressLazy = ResponseCatalog(CatalogDefinition.standard.adding(StressLazyCode.definition))
}
