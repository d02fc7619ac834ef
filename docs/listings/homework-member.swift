// Context "homework-member": a listing that shows a member of a module enum (`static let
// classifier = …`), inside HomeworkCode, a module of the shop's app.
import ShopErrors

enum HomeworkCode: ModuleCode {
    case lateSubmission
    case other(Int64)

    static var moduleName: String { "homework" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Homework") }
    static var codeRanges: [ClosedRange<Int64>] { [11300000...11309999] }
    static var listedCases: [Self] { [.lateSubmission] }
    static func unrecognised(_ code: Int64) -> Self { .other(code) }

    var code: Int64 {
        switch self {
        case .lateSubmission: 11300001
        case .other(let code): code
        }
    }

    var message: LocalizedText {
        switch self {
        case .lateSubmission: LocalizedText(english: "The homework was submitted late.")
        case .other: Self.unrecognisedMessage
        }
    }

    // LISTING
}

extension Catalog {
    /// The app's catalog: the shop's, with the homework module.
    static let app = try! Catalog(ShopCatalog.definition.adding(HomeworkCode.definition))
}
