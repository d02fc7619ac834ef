import Foundation

/// What one exchange with an upstream says about the upstream's health: the one rule for what a
/// failure is, used by ``RetryBudget``, ``CircuitBreaker``, ``AdaptiveThrottle`` (through
/// ``UpstreamProtection``) and by ``RetryPolicy/disposition(for:)``.
///
/// Resilience tools usually count every error as a failure. A backend that answers
/// `{"ret": 11210005}` ("wrong team code") with HTTP 200 is healthy: it understood the request and
/// said no. Counting that answer as a failure would open a circuit breaker in front of a healthy
/// service whenever its users mistype; counting it as a success is right. The classification tells
/// the two apart:
///
/// | the exchange | outcome |
/// |---|---|
/// | the success code | ``success`` |
/// | a server code flagged `CodeFlags.retryable` (and not `CodeFlags.fatal`) | ``failure(_:)``, ``UpstreamFailure/retryableCode`` |
/// | any other server code: a business answer, a base code (token expiry), an unknown code | ``answer`` |
/// | HTTP 5xx, or a status outside 100–599 | ``failure(_:)``, ``UpstreamFailure/serverError`` |
/// | HTTP 429 | ``failure(_:)``, ``UpstreamFailure/tooManyRequests`` |
/// | HTTP 408, an attempt or a request that ran out of time, `URLError.timedOut`, `ETIMEDOUT` | ``failure(_:)``, ``UpstreamFailure/timeout`` |
/// | any other transport failure: refused, reset, closed, DNS, TLS | ``failure(_:)``, ``UpstreamFailure/transport`` |
/// | any other status (1xx, 3xx, other 4xx) | ``answer`` |
/// | a body over the reader's limit, a body that is not an envelope, a payload that does not decode | ``answer``: the upstream answered; what it said is the caller's problem |
/// | a session that could not be renewed (``ModuleRespError/reauthenticationFailed(_:)``) | ``answer``: the upstream refused the credential |
/// | cancellation, the person's stop, a catalog that could not be assembled, a request an ``UpstreamProtection`` refused (``ModuleRespError/refused(_:)``, or an ``UpstreamRefusal`` thrown as it is) | ``unjudged``: nothing was learnt about the upstream |
///
/// <!-- listing: context=gateway -->
/// ```swift
/// let fromClient = UpstreamOutcome(result)        // a ResponseClient or ResponseDecoder result
/// let fromGateway = UpstreamOutcome(status: 200, classification: observation.classification)  // a gateway
/// protection.record(fromClient, for: permit)
/// ```
public enum UpstreamOutcome: Sendable, Hashable {
    /// The upstream answered with the success code.
    case success
    /// The upstream answered, and the answer is not a failure of the upstream: a business answer,
    /// a base code, another 4xx. It counts as a success for the budget, the breaker and the
    /// throttle, and is never retried by this rule.
    case answer
    /// The upstream failed, or said it could not answer now.
    case failure(UpstreamFailure)
    /// The exchange ended on the caller's side (cancelled, stopped, misconfigured) before anything
    /// could be learnt about the upstream: counted neither way.
    case unjudged

    /// Whether this is a ``failure(_:)``.
    public var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }

    /// The outcome of a server code by its catalog flags: a ``failure(_:)`` when the code is flagged
    /// `CodeFlags.retryable` and not `CodeFlags.fatal` (the server says "not now"), otherwise an
    /// ``answer`` (or ``success`` for the success code, which is not read from flags).
    /// - Parameter flags: The code's catalog flags (empty for a code the catalog does not list).
    public init(flags: CodeFlags) {
        self = flags.contains(.retryable) && !flags.contains(.fatal) ? .failure(.retryableCode) : .answer
    }

    /// The outcome of an HTTP status alone: 2xx is a ``success`` (read the envelope with
    /// ``init(status:classification:)`` to tell success codes from answers), 408 a timeout, 429 too
    /// many requests, 5xx and anything outside 100–599 a server error, every other status an
    /// ``answer``.
    /// - Parameter status: The status code.
    public init(status: Int) {
        switch status {
        case 200..<300: self = .success
        case 408: self = .failure(.timeout)
        case 429: self = .failure(.tooManyRequests)
        case 100..<500: self = .answer
        default: self = .failure(.serverError)
        }
    }

    /// The outcome of a response as a gateway sees it: its status and, for a 2xx answer, the
    /// classification of its envelope's code.
    /// - Parameters:
    ///   - status: The status code.
    ///   - classification: The classification of the envelope's code, or `nil` when the body was not
    ///     read or is not an envelope (an ``answer`` for a 2xx status).
    public init(status: Int, classification: Classification?) {
        guard (200..<300).contains(status) else {
            self.init(status: status)
            return
        }
        guard let classification else {
            self = .answer
            return
        }
        self = classification.tier == .success ? .success : UpstreamOutcome(flags: classification.flags)
    }

    /// The outcome of a request that failed with a module error.
    /// - Parameter error: The error the request ended with.
    public init<Code: ModuleCode>(_ error: ModuleRespError<Code>) {
        switch error {
        case .base, .module, .unexpectedCode:
            self.init(flags: error.flags)
        case .unacceptableStatus(let status):
            self.init(status: status.statusCode)
        case .transportFailed(let underlying):
            self.init(transportError: underlying)
        case .invalidEnvelope, .decodingFailed:
            self = .answer
        case .reauthenticationFailed:
            // The upstream answered: it refused the credential, before and after a refresh.
            self = .answer
        case .cancelled, .stoppedByUser, .invalidCatalog, .refused:
            // Nothing reached the upstream, or what did was not judged.
            self = .unjudged
        }
    }

    /// The outcome of a request's result: ``success`` for a payload, otherwise the error's outcome.
    /// - Parameter result: What the request ended with.
    public init<Model, Code: ModuleCode>(_ result: Result<Model, ModuleRespError<Code>>) {
        switch result {
        case .success: self = .success
        case .failure(let error): self.init(error)
        }
    }

    /// The outcome of an error a transport threw: a ``ResponseBodyTooLargeError`` is an ``answer``
    /// (the upstream answered, too much); a ``RequestTimeoutError``, `URLError.timedOut` or
    /// `POSIXError.ETIMEDOUT` a timeout; cancellation (`CancellationError`, `URLError.cancelled`,
    /// `POSIXError.ECANCELED`) and an ``UpstreamRefusal`` (the request was never sent) are
    /// ``unjudged``; anything else is a transport failure.
    /// - Parameter transportError: The error.
    public init(transportError: any Error) {
        switch transportError {
        case is ResponseBodyTooLargeError:
            self = .answer
        case is RequestTimeoutError:
            self = .failure(.timeout)
        case is CancellationError, is UpstreamRefusal:
            self = .unjudged
        case let error as URLError where error.code == .cancelled:
            self = .unjudged
        case let error as URLError where error.code == .timedOut:
            self = .failure(.timeout)
        case let error as POSIXError where error.code == .ECANCELED:
            self = .unjudged
        case let error as POSIXError where error.code == .ETIMEDOUT:
            self = .failure(.timeout)
        default:
            self = .failure(.transport)
        }
    }
}

/// Which kind of failure an ``UpstreamOutcome/failure(_:)`` is.
public enum UpstreamFailure: String, Sendable, Hashable, CaseIterable {
    /// No answer: the connection was refused, reset or closed, the name did not resolve, TLS failed.
    case transport
    /// No answer in time: an attempt's or the request's time limit, a transport's time-out, HTTP 408.
    case timeout
    /// HTTP 5xx (or a status outside 100–599).
    case serverError = "server_error"
    /// HTTP 429.
    case tooManyRequests = "too_many_requests"
    /// A server code flagged `CodeFlags.retryable` (the server is busy, try later).
    case retryableCode = "retryable_code"
}
