extension ModuleRespError: CustomStringConvertible, CustomDebugStringConvertible {
    /// A one-line English description for logs, e.g.
    /// `studyGroup.wrongTeamCode (11210005): The class code is wrong.` or
    /// `invalid envelope: code member "ret" is a string ("11001"), not an integer (byte 7)`.
    public var description: String {
        switch self {
        case .base(let code):
            let table = Code.catalog.table
            let name = table.flatMap { code.name(in: $0) } ?? "unknown"
            let text = table?.describe(code.rawValue, in: .english) ?? ""
            return "base.\(name) (\(code.rawValue)): \(text)"
        case .module(let code):
            if code.isUnrecognised {
                return "\(Code.moduleName): unrecognised code (\(Code.unrecognisedMessage.english))"
            }
            let text = Code.catalog.table?.describe(Int64(code.rawValue), in: .english) ?? code.message.english
            return "\(Code.moduleName).\(code.name) (\(code.rawValue)): \(text)"
        case .unexpectedCode(let raw):
            var owner = ""
            if let table = Code.catalog.table {
                let classification = table.classify(raw)
                if classification.tier == .module, let name = table.moduleName(classification.moduleID) {
                    owner = ", owned by module '\(name)'"
                }
            }
            return "unexpected code \(raw) for module \(Code.moduleName)\(owner)"
        case .transportFailed(let underlying):
            return "transport failed: \(String(describing: underlying))"
        case .cancelled:
            return "cancelled"
        case .unacceptableStatus(let status):
            return "unacceptable HTTP status \(status)"
        case .invalidEnvelope(let failure):
            return "invalid envelope: \(failure.description)"
        case .decodingFailed(let underlying):
            return "decoding data failed: \(String(describing: underlying))"
        case .invalidCatalog(let failure):
            return "invalid catalog: \(failure.message)"
        }
    }

    /// The same as ``description``, prefixed with the module type.
    public var debugDescription: String {
        "ModuleRespError<\(Code.self)>: \(description)"
    }
}
