extension ModuleRespError {
    /// Creates the error for a classified code that is not success.
    /// - Parameters:
    ///   - outcome: A code classified for this module.
    ///   - serverMessage: The envelope's message, cleaned with ``ServerMessage/sanitized(_:)`` and
    ///     kept by a server-code case.
    /// - Returns: The matching error, or `nil` for the success code.
    public init?(_ outcome: CodeOutcome<Code>, serverMessage: String? = nil) {
        self.init(outcome, sanitizedMessage: ServerMessage.sanitized(serverMessage))
    }

    /// The error for a classified code and a message already cleaned.
    @usableFromInline
    init?(_ outcome: CodeOutcome<Code>, sanitizedMessage message: String?) {
        switch outcome {
        case .success: return nil
        case .base(let code): self = .base(ServerAnswer(code, sanitizedMessage: message))
        case .module(let code): self = .module(ServerAnswer(code, sanitizedMessage: message))
        case .unexpected(let raw): self = .unexpectedCode(ServerAnswer(raw, sanitizedMessage: message))
        case .invalidCatalog(let failure): self = .invalidCatalog(failure)
        }
    }

    /// The server's message for a server code (``base(_:)``, ``module(_:)``,
    /// ``unexpectedCode(_:)``): cleaned and bounded by ``ServerMessage/sanitized(_:)``; `nil` when
    /// the envelope had none and for every other failure. It is kept whatever
    /// ``ServerMessage/isShownInDescriptions`` says.
    public var serverMessage: String? {
        switch self {
        case .base(let answer): return answer.serverMessage
        case .module(let answer): return answer.serverMessage
        case .unexpectedCode(let answer): return answer.serverMessage
        default: return nil
        }
    }

    /// The server's response code: the base code, the module code (also the number an
    /// unrecognised module code carries), or the unexpected code; `nil` for failures that are not
    /// server codes.
    public var rawCode: Int64? {
        switch self {
        case .base(let answer): return answer.value.rawValue
        case .module(let answer): return answer.value.code
        case .unexpectedCode(let answer): return answer.value
        default: return nil
        }
    }

    /// The module's name (`ModuleCode.moduleName`) for a module code, otherwise `nil`.
    public var module: String? {
        if case .module = self { return Code.moduleName }
        return nil
    }

    /// The module code, or `nil`.
    public var moduleCode: Code? {
        if case .module(let answer) = self { return answer.value }
        return nil
    }

    /// The base code, or `nil`.
    public var baseCode: BaseCode? {
        if case .base(let answer) = self { return answer.value }
        return nil
    }

    /// Whether this is a base-tier code.
    public var isBase: Bool { baseCode != nil }
    /// Whether this is one of the module's codes (including its unrecognised case).
    public var isModule: Bool { moduleCode != nil }
    /// Whether this is a server code (base, module or unexpected), not a client-side failure.
    public var isServerCode: Bool {
        switch self {
        case .base, .module, .unexpectedCode: return true
        default: return false
        }
    }
    /// Whether this is a code that is neither base nor this module's.
    public var isUnexpectedCode: Bool {
        if case .unexpectedCode = self { return true }
        return false
    }
    /// Whether the transport failed or the request was cancelled.
    public var isTransport: Bool {
        switch self {
        case .transportFailed, .cancelled: return true
        default: return false
        }
    }
    /// Whether the request was cancelled.
    public var isCancelled: Bool {
        if case .cancelled = self { return true }
        return false
    }
    /// Whether the person chose not to try again (``stoppedByUser(_:)``).
    public var isStoppedByUser: Bool { userStop != nil }
    /// The person's stop, or `nil`.
    public var userStop: UserStoppedError? {
        if case .stoppedByUser(let stop) = self { return stop }
        return nil
    }
    /// Whether the HTTP status was not acceptable.
    public var isUnacceptableStatus: Bool { statusCode != nil }
    /// Whether the body was not a valid envelope.
    public var isInvalidEnvelope: Bool { envelopeError != nil }
    /// Whether decoding the payload failed.
    public var isDecodingFailure: Bool {
        if case .decodingFailed = self { return true }
        return false
    }
    /// Whether the module's catalog could not be assembled.
    public var isInvalidCatalog: Bool {
        if case .invalidCatalog = self { return true }
        return false
    }
    /// Whether an ``AuthenticationSession`` could not renew the session
    /// (``reauthenticationFailed(_:)``).
    public var isReauthenticationFailure: Bool { reauthenticationError != nil }
    /// The session's failure to renew, or `nil`.
    public var reauthenticationError: ReauthenticationError? {
        if case .reauthenticationFailed(let failure) = self { return failure }
        return nil
    }

    /// Whether the request's upstream protection refused it (``refused(_:)``).
    public var isRefused: Bool { refusal != nil }
    /// The upstream protection's refusal, or `nil`.
    public var refusal: UpstreamRefusal? {
        if case .refused(let refusal) = self { return refusal }
        return nil
    }

    /// The unacceptable HTTP status, or `nil`.
    public var statusCode: Int? { statusError?.statusCode }

    /// The unacceptable HTTP status with its `Retry-After`, or `nil`.
    public var statusError: HTTPStatusError? {
        if case .unacceptableStatus(let status) = self { return status }
        return nil
    }

    /// When trying again makes sense, or `nil`: the server's `Retry-After` answer to an unacceptable
    /// status; for a ``refused(_:)`` request, the refusal's ``UpstreamRefusal/retryAfter`` in whole
    /// seconds, rounded up and at least one (what a server would send as `Retry-After`; the exact
    /// duration is `refusal?.retryAfter`).
    public var retryAfter: RetryAfter? {
        switch self {
        case .unacceptableStatus(let status):
            return status.retryAfter
        case .refused(let refusal):
            guard let after = refusal.retryAfter else { return nil }
            let (seconds, attoseconds) = after.components
            return .seconds(max(1, seconds + (attoseconds > 0 ? 1 : 0)))
        default:
            return nil
        }
    }

    /// The envelope problem, or `nil`.
    public var envelopeError: EnvelopeError? {
        if case .invalidEnvelope(let failure) = self { return failure }
        return nil
    }

    /// The decoder's error when it is a `DecodingError`, or `nil`.
    public var decodingError: DecodingError? {
        if case .decodingFailed(let underlying) = self { return underlying as? DecodingError }
        return nil
    }

    /// The cause kept by the error: the transport error, the decoder's error, the
    /// ``HTTPStatusError``, the ``EnvelopeError``, the `CatalogError`, the
    /// ``UserStoppedError``, the ``ReauthenticationError`` or the ``UpstreamRefusal``; `nil` for
    /// server codes and cancellation.
    public var underlyingError: (any Error)? {
        switch self {
        case .transportFailed(let underlying), .decodingFailed(let underlying): return underlying
        case .unacceptableStatus(let status): return status
        case .invalidEnvelope(let failure): return failure
        case .invalidCatalog(let failure): return failure
        case .stoppedByUser(let stop): return stop
        case .reauthenticationFailed(let failure): return failure
        case .refused(let refusal): return refusal
        default: return nil
        }
    }

    /// The C catalog's flags of the server code (empty for everything else), read from the
    /// module's catalog with one `errcore_classify()` call: a base code's, this module's, or
    /// another module's code that the catalog lists (an unexpected answer to this module's request).
    public var flags: CodeFlags {
        guard let catalog = Code.catalog else { return [] }
        switch self {
        case .base(let answer):
            return answer.value.flags(in: catalog)
        case .module(let answer):
            let classification = catalog.classify(answer.value.code)
            return classification.isExact ? classification.flags : []
        case .unexpectedCode(let answer):
            let classification = catalog.classify(answer.value)
            return classification.isExact ? classification.flags : []
        default:
            return []
        }
    }

    /// Whether repeating the request may succeed, by the one rule ``RetryPolicy/default`` applies
    /// (``RetryPolicy/disposition(for:)``): a server code of any module only when its catalog flags
    /// say `CodeFlags.retryable` (and not `CodeFlags.fatal`); a retryable HTTP status or a
    /// transient transport failure; never cancellation, the person's stop, envelope, decoding or
    /// catalog errors, a session that could not be renewed, nor a request the upstream's protection
    /// refused (which the person may still try again later: its ``suggestedRecovery`` is
    /// ``SuggestedRecovery/tryAgain``).
    public var isRetryable: Bool {
        RetryPolicy.default.disposition(for: self) == .retry
    }

    /// Whether the user must sign in again: the server code is flagged
    /// `CodeFlags.reauthenticate` in the C catalog (token expiry, failed automatic sign-in), or an
    /// ``AuthenticationSession`` could not renew the session (``reauthenticationFailed(_:)``).
    public var requiresReauthentication: Bool {
        if case .reauthenticationFailed = self { return true }
        return flags.contains(.reauthenticate)
    }

    /// The typed outcome of a server code, or `nil` for client-side failures.
    public var outcome: CodeOutcome<Code>? {
        switch self {
        case .base(let answer): return .base(answer.value)
        case .module(let answer): return .module(answer.value)
        case .unexpectedCode(let answer): return .unexpected(answer.value)
        case .invalidCatalog(let failure): return .invalidCatalog(failure)
        default: return nil
        }
    }
}
