// ShopErrors: the shop backend's codes. The SwiftErrCatalogPlugin generates, from catalog.json at
// build time, the module enums CartCode and PaymentCode, the base codes (BaseCode.sessionExpired,
// .tooManyRequests, .maintenance) and ShopCatalog (the catalog's definition and install()).
// Importing ShopErrors gives those and SwiftErr's API: the generated file re-exports SwiftErr.

import SwiftErr

/// One line about a code as the shop's catalog classifies it: the tier, the entry (or the module, for
/// a code it does not list) and the message, e.g.
/// `20001  module cart.itemOutOfStock [showUser]  This item is out of stock.`
/// - Parameters:
///   - code: A code the shop backend sent.
///   - catalog: The catalog to classify with; the process-wide catalog by default.
///   - language: The language of the message.
/// - Returns: The line.
public func describeShopCode(_ code: Int64, in catalog: Catalog = .current, language: Language = .english) -> String {
    let classification = catalog.classify(code)
    var what: String
    switch classification.tier {
    case .success:
        what = "success"
    case .base:
        what = "base " + (classification.entryIndex.flatMap { catalog.entryName(at: $0) } ?? "?")
    case .module:
        let module = catalog.moduleName(classification.moduleID) ?? "?"
        let entry = classification.entryIndex.flatMap { catalog.entryName(at: $0) }
        what = "module " + module + (entry.map { "." + $0 } ?? " (unrecognised)")
    case .unknown:
        what = "unknown"
    }
    if !classification.flags.isEmpty {
        what += " [" + classification.flags.names.joined(separator: ", ") + "]"
    }
    return "\(code)  \(what)  \(catalog.describe(code, in: language))"
}
