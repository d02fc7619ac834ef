/// Every way a request made for one module can fail, typed by the module's code enum.
///
/// Server codes come in two tiers, ``base(_:)`` and ``module(_:)``, plus ``unexpectedCode(_:)``;
/// each carries a ``ServerAnswer``: the code and the message the server sent beside it
/// (``serverMessage``). Failures that are not server codes have one case per stage of the request
/// (transport, HTTP status, envelope, decoding),
/// carrying the cause (the underlying transport error, the HTTP status, an ``EnvelopeError``
/// with its nested ``EnvelopeError/Reason`` and key, the decoder's error).
///
/// <!-- listing: context=app -->
/// ```swift
/// do {
///     let group = try decoder.decode(ClassItem.self, module: StudyGroupCode.self, from: body)
/// } catch .module(.wrongTeamCode) {
///     showWarning()
/// } catch {
///     show(error.localizedDescription)
/// }
/// ```
///
/// Patterns match a server-code case against a bare code (`catch .module(.wrongTeamCode)`,
/// `case .base(.tokenExpire)`, `case .unexpectedCode(11090)`) through ``ServerAnswer``'s `~=`,
/// and ``module(_:serverMessage:)``, ``base(_:serverMessage:)`` and
/// ``unexpectedCode(_:serverMessage:)`` make one from a bare code. A pattern into the module
/// enum's own cases (`.module(.other)`) cannot see through the answer: match ``outcome`` or
/// ``moduleCode`` for that.
///
/// `ModuleRespError` is not `Equatable`: the transport and decoding cases carry arbitrary errors,
/// which cannot be compared soundly. Compare ``outcome``, ``rawCode`` or the payloads instead
/// (``ServerAnswer`` — equal when the codes are, whatever the messages —, `BaseCode`, the module
/// enum, ``EnvelopeError`` and `CatalogError` are all `Hashable`).
public enum ModuleRespError<Code: ModuleCode>: Error {
    /// A base-tier code: handled centrally (see ``BaseCodeHandler``) and passed on; with the
    /// server's message.
    case base(ServerAnswer<BaseCode>)
    /// One of the module's codes; its unrecognised case (`ModuleCode.unrecognised(_:)`, carrying
    /// the server's number) for an unlisted code in its ranges; with the server's message.
    case module(ServerAnswer<Code>)
    /// A code that is neither success, a base code nor this module's (unknown to the catalog, or
    /// another module's): its own outcome, never dropped; with the server's message.
    case unexpectedCode(ServerAnswer<Int64>)
    /// The transport failed before a response arrived; the underlying error is kept (a `URLError`,
    /// a `POSIXError`, a ``RequestTimeoutError``, a ``ResponseBodyTooLargeError``, or any error no
    /// adapter knows).
    case transportFailed(underlying: any Error)
    /// The request was cancelled (a `CancellationError`, `URLError.cancelled`,
    /// `URLError.userCancelledAuthentication` or `POSIXError.ECANCELED`).
    case cancelled
    /// The person chose not to try again when a ``Retrier`` or ``ResponseClient`` asked; the
    /// ``UserStoppedError`` carries its own message, the attempts made and the failure asked about.
    case stoppedByUser(UserStoppedError)
    /// The HTTP status is not acceptable (by default, not 2xx); the ``HTTPStatusError`` keeps the
    /// server's `Retry-After`. Write `.unacceptableStatus(503)` for a status without one.
    case unacceptableStatus(HTTPStatusError)
    /// The body is not a valid envelope; the nested reason says what and where.
    case invalidEnvelope(EnvelopeError)
    /// The envelope reported success but its `data` could not be decoded into the model; the
    /// decoder's error (usually a `DecodingError`) is kept.
    case decodingFailed(underlying: any Error)
    /// The module's catalog could not be assembled (a configuration error in the app).
    case invalidCatalog(CatalogError)
    /// The server asked to sign in again and the ``AuthenticationSession`` could not renew the
    /// session: its refresh failed, its refresh window was full, or the request sent again with the
    /// new credential was refused again. The ``ReauthenticationError`` says which and keeps the
    /// cause; the person has to sign in (``requiresReauthentication`` is `true`).
    case reauthenticationFailed(ReauthenticationError)
    /// The request was not sent: the ``UpstreamProtection`` of its upstream refused it at once,
    /// without touching the upstream (its circuit is open, half-open with its probes in flight or
    /// isolated, or its throttle shed the request). The ``UpstreamRefusal`` says why and when trying
    /// again makes sense (``UpstreamRefusal/retryAfter``). Never retried, since refusing is the
    /// point; presented as "Try again later" (``SuggestedRecovery/tryAgain``).
    case refused(UpstreamRefusal)
}

extension ModuleRespError {
    /// A base-tier code, e.g. `.base(.tokenExpire)`.
    /// - Parameters:
    ///   - code: The base code.
    ///   - serverMessage: The server's message, cleaned with ``ServerMessage/sanitized(_:)``.
    /// - Returns: ``base(_:)`` carrying the code and the message.
    public static func base(_ code: BaseCode, serverMessage: String? = nil) -> Self {
        .base(ServerAnswer(code, serverMessage: serverMessage))
    }

    /// One of the module's codes, e.g. `.module(.wrongTeamCode)`.
    /// - Parameters:
    ///   - code: The module code.
    ///   - serverMessage: The server's message, cleaned with ``ServerMessage/sanitized(_:)``.
    /// - Returns: ``module(_:)`` carrying the code and the message.
    public static func module(_ code: Code, serverMessage: String? = nil) -> Self {
        .module(ServerAnswer(code, serverMessage: serverMessage))
    }

    /// A code that is neither success, a base code nor this module's, e.g. `.unexpectedCode(5)`.
    /// - Parameters:
    ///   - code: The server's number.
    ///   - serverMessage: The server's message, cleaned with ``ServerMessage/sanitized(_:)``.
    /// - Returns: ``unexpectedCode(_:)`` carrying the number and the message.
    public static func unexpectedCode(_ code: Int64, serverMessage: String? = nil) -> Self {
        .unexpectedCode(ServerAnswer(code, serverMessage: serverMessage))
    }

    /// An unacceptable HTTP status without `Retry-After`, e.g. `.unacceptableStatus(404)`.
    /// - Parameter statusCode: The status the server answered with.
    /// - Returns: ``unacceptableStatus(_:)-enum.case`` carrying `HTTPStatusError(statusCode:)`.
    public static func unacceptableStatus(_ statusCode: Int) -> Self {
        .unacceptableStatus(HTTPStatusError(statusCode: statusCode))
    }
}
