extension ModuleRespError: CustomStringConvertible, CustomDebugStringConvertible {
    /// A one-line English description for logs, e.g.
    /// `studyGroup.wrongTeamCode (11210005): The class code is wrong.` or
    /// `invalid envelope: code member "ret" is a string ("11001"), not an integer (byte 7)`.
    public var description: String {
        switch self {
        case .base(let code):
            let catalog = Code.catalog
            let name = catalog.flatMap { code.name(in: $0) } ?? "unknown"
            let text = catalog?.describe(code.rawValue, in: .english) ?? ""
            return "base.\(name) (\(code.rawValue)): \(text)"
        case .module(let code):
            let text = Code.catalog?.describe(code.code, in: .english) ?? code.message.english
            if code.isUnrecognised {
                return "\(Code.moduleName): unrecognised code \(code.code): \(text)"
            }
            return "\(Code.moduleName).\(code.name) (\(code.code)): \(text)"
        case .unexpectedCode(let raw):
            var owner = ""
            if let catalog = Code.catalog {
                let classification = catalog.classify(raw)
                if classification.tier == .module, let name = catalog.moduleName(classification.moduleID) {
                    owner = ", owned by module '\(name)'"
                }
            }
            return "unexpected code \(raw) for module \(Code.moduleName)\(owner)"
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

    /// The same as ``description``, prefixed with the module type.
    public var debugDescription: String {
        "ModuleRespError<\(Code.self)>: \(description)"
    }
}
