extension ModuleRespError: CustomStringConvertible, CustomDebugStringConvertible {
    /// A one-line English description for logs, e.g.
    /// `studyGroup.wrongTeamCode (11210005): The class code is wrong.` or
    /// `invalid envelope: code member "ret" is a string ("11001"), not an integer (byte 7)`.
    ///
    /// A server code the catalog does not list shows the server's message, quoted, in place of the
    /// catalog's generic text when there is one and ``ServerMessage/isShownInDescriptions`` is on:
    /// `studyGroup: unrecognised code 11219999: server's message "Your team is full."`,
    /// `unexpected code 5 for module studyGroup: server's message "Your team is full."`.
    public var description: String {
        switch self {
        case .base(let answer):
            let code = answer.value
            let catalog = Code.catalog
            let name = catalog.flatMap { code.name(in: $0) } ?? "unknown"
            let text =
                serverMessageText(answer.serverMessage, for: code.rawValue)
                ?? catalog?.describe(code.rawValue, in: .english) ?? ""
            return "base.\(name) (\(code.rawValue)): \(text)"
        case .module(let answer):
            let code = answer.value
            let text =
                serverMessageText(answer.serverMessage, for: code.code)
                ?? Code.catalog?.describe(code.code, in: .english) ?? code.message.english
            if code.isUnrecognised {
                return "\(Code.moduleName): unrecognised code \(code.code): \(text)"
            }
            return "\(Code.moduleName).\(code.name) (\(code.code)): \(text)"
        case .unexpectedCode(let answer):
            let raw = answer.value
            var owner = ""
            if let catalog = Code.catalog {
                let classification = catalog.classify(raw)
                if classification.tier == .module, let name = catalog.moduleName(classification.moduleID) {
                    owner = ", owned by module '\(name)'"
                }
            }
            let server = serverMessageText(answer.serverMessage, for: raw).map { ": \($0)" } ?? ""
            return "unexpected code \(raw) for module \(Code.moduleName)\(owner)\(server)"
        case .transportFailed(let underlying):
            return "transport failed: \(String(describing: underlying))"
        case .cancelled:
            return "cancelled"
        case .stoppedByUser(let stop):
            return stop.description
        case .unacceptableStatus(let status):
            let retryAfter = status.retryAfter.map { " (Retry-After: \($0))" } ?? ""
            return "unacceptable HTTP status \(status.statusCode)\(retryAfter)"
        case .invalidEnvelope(let failure):
            return "invalid envelope: \(failure.description)"
        case .decodingFailed(let underlying):
            return "decoding data failed: \(String(describing: underlying))"
        case .invalidCatalog(let failure):
            return "invalid catalog: \(failure.message)"
        case .reauthenticationFailed(let failure):
            return "re-authentication failed: \(failure.description)"
        case .refused(let refusal):
            return "refused by the upstream's protection: \(refusal.description)"
        }
    }

    /// `server's message "…"` when the description shows the server's message for `code`.
    private func serverMessageText(_ message: String?, for code: Int64) -> String? {
        let shown = Self.shownServerMessage(message, for: code, in: Code.catalog ?? Catalog.current)
        return shown.map { "server's message \(String(reflecting: $0))" }
    }

    /// The same as ``description``, prefixed with the module type.
    public var debugDescription: String {
        "ModuleRespError<\(Code.self)>: \(description)"
    }
}
