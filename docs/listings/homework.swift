// Context "homework": the module DefiningAModule declares, for the listings that extend or
// register it (an extension that gives it a classifier must be in the module that declares it).
import SwiftErr

enum HomeworkCode: ModuleCode {
    case lateSubmission, missingAttachment
    case other(Int64)

    static var moduleName: String { "homework" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Homework", simplifiedChinese: "作业") }
    static var codeRanges: [ClosedRange<Int64>] { [11300000...11309999] }
    static var listedCases: [Self] { [.lateSubmission, .missingAttachment] }
    static func unrecognised(_ code: Int64) -> Self { .other(code) }

    var code: Int64 {
        switch self {
        case .lateSubmission: 11300001
        case .missingAttachment: 11300002
        case .other(let code): code
        }
    }

    var message: LocalizedText {
        switch self {
        case .lateSubmission: LocalizedText(english: "The homework was submitted late.")
        case .missingAttachment: LocalizedText(english: "The attachment is missing.")
        case .other: Self.unrecognisedMessage
        }
    }
}

// LISTING
