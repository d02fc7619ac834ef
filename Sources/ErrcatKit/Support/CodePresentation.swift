// `errcat explain --present`: what an app would show its user for a code, built by the library
// (ErrorPresentation(code:in:language:), whose actions come from the catalog flags) and rendered
// by TerminalErrorPresenter.

import SwiftErr

/// Renders one code as the terminal presenter shows it, without asking for a choice; a lone "OK"
/// is not listed.
/// - Parameters:
///   - code: The code.
///   - table: The catalog that classifies it.
///   - language: The language of every text.
/// - Returns: The rendered text (ends with a newline).
func presentationText(of code: Int64, in table: Catalog, language: Language) -> String {
    let presentation = ErrorPresentation(code: code, in: table, language: language)
    return TerminalErrorPresenter<String>.render(presentation, listingActions: presentation.actions.count > 1)
}
