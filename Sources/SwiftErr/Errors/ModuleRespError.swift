/// Every way a request made for one module can fail, typed by the module's code enum.
///
/// Server codes come in two tiers, ``base(_:)`` and ``module(_:)``; failures that are not server
/// codes have one case per stage of the request (transport, HTTP status, envelope, decoding),
/// carrying the cause (the underlying transport error, the HTTP status, an ``EnvelopeError``
/// with its nested ``EnvelopeError/Reason`` and key, the decoder's error).
///
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
/// `ModuleRespError` is not `Equatable`: the transport and decoding cases carry arbitrary errors,
/// which cannot be compared soundly. Compare ``outcome``, ``rawCode`` or the payloads instead
/// (`BaseCode`, the module enum, ``EnvelopeError`` and `CatalogError` are all `Hashable`).
public enum ModuleRespError<Code: ModuleCode>: Error {
    /// A base-tier code: handled centrally (see ``BaseCodeHandler``) and passed on.
    case base(BaseCode)
    /// One of the module's codes; its unrecognised case (`ModuleCode.unrecognised(_:)`, carrying
    /// the server's number) for an unlisted code in its ranges.
    case module(Code)
    /// A code that is neither success, a base code nor this module's (unknown to the catalog, or
    /// another module's): its own outcome, never dropped.
    case unexpectedCode(Int64)
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
    /// An unacceptable HTTP status without `Retry-After`, e.g. `.unacceptableStatus(404)`.
    /// - Parameter statusCode: The status the server answered with.
    /// - Returns: ``unacceptableStatus(_:)-enum.case`` carrying `HTTPStatusError(statusCode:)`.
    public static func unacceptableStatus(_ statusCode: Int) -> Self {
        .unacceptableStatus(HTTPStatusError(statusCode: statusCode))
    }
}
