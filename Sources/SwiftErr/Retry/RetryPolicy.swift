import Foundation

/// How often, how soon and for which failures ``Retrier`` repeats an operation.
///
/// ## Backoff
/// The wait after failed attempt *n* (1-based) is `initialBackoff × multiplier^(n-1)`, capped at
/// ``maxBackoff``, then jittered (``Jitter``) so that many clients do not retry in step. When the
/// failure is a status in ``retryAfterStatusCodes`` (429 and 503 by default) and the server sent
/// `Retry-After`, that wait is used instead (no jitter); a `Retry-After` longer than
/// ``maxRetryAfter`` ends the flow rather than hammering a server that asked for a long pause.
///
/// ## What is retried (``disposition(for:)``)
/// This is the one retryability rule: ``ModuleRespError/isRetryable`` is
/// `RetryPolicy.default.disposition(for: error) == .retry`. It builds on the one rule for what a
/// failure of the upstream is (``UpstreamOutcome``, which the retry budget, the circuit breaker and
/// the throttle count by): only a failure may be repeated, and the policy narrows which. A front end
/// without a module type (a gateway reading envelopes with its own catalog) applies the same rule
/// through the parts ``disposition(for:)`` is made of: ``disposition(forStatus:)``,
/// ``disposition(forTransportError:)``, ``disposition(forCode:flags:)`` and
/// ``retryAfterDelay(forStatus:retryAfter:now:)``.
/// - Server codes, of any module (a base code, the module's own, or another module's code
///   answered to this module's request): the catalog's flags decide. `CodeFlags.fatal` or a code
///   in ``endingServerCodes`` ends the flow at once; `CodeFlags.retryable` (a failure by
///   ``UpstreamOutcome/init(flags:)``) retries; anything else is final (a business answer does not
///   change by asking again).
/// - HTTP statuses: ``endingStatusCodes`` end the flow at once (to end on 503:
///   `policy.endingStatusCodes = [503]`); ``retryableStatusCodes`` retry; the rest are final.
/// - Transport failures that ``UpstreamOutcome/init(transportError:)`` calls failures: a `URLError`
///   whose code is in ``retryableURLErrorCodes``, a `POSIXError` whose code is in
///   ``retryablePOSIXErrorCodes``, an attempt that ran out of time
///   (``RequestTimeoutError/Limit/attempt``, when `URLError.timedOut` is retryable), and, when
///   ``retriesOtherTransportFailures`` is set, any other transport error. A request that reached
///   its deadline (``RequestTimeoutError/Limit/deadline``), a body over a reader's limit
///   (``ResponseBodyTooLargeError``, an answer by the rule) and a cancellation carried as a
///   transport failure (`CancellationError`, `URLError.cancelled`, `ECANCELED`) are never retried.
/// - HTTP statuses are the policy's own sets, which may name statuses the rule does not call
///   failures (a `409` a service knows to be transient); the defaults are all failures by the rule.
/// - Cancellation, the person's stop, envelope, decoding and catalog errors, and a session that
///   could not be renewed (``ModuleRespError/reauthenticationFailed(_:)``), and a request an
///   ``UpstreamProtection`` refused (``ModuleRespError/refused(_:)``), are never retried.
///
/// ## Why the defaults are what they are
/// - **429 is retried**, and `Retry-After` is honoured on 429 and 503: the server says exactly
///   when trying again is welcome, so waiting that long is both polite and likely to succeed.
/// - **11 transient `URLError` codes** (``transientURLErrorCodes``): failures of the network path
///   that a later attempt can get past. Seven other codes that clients sometimes retry are left
///   out (``extendedTransientURLErrorCodes`` adds them back): `callIsActive`, `dataNotAllowed`,
///   `internationalRoamingOff` (device settings or a phone call: only the user can fix them, so
///   they go to the decision hook and recovery options, not a silent loop);
///   `serverCertificateHasBadDate`, `serverCertificateNotYetValid` (a certificate or clock
///   problem that seconds of backoff do not fix, and retrying TLS failures quietly hides them);
///   `backgroundSessionInUseByAnotherProcess`, `backgroundSessionWasDisconnected` (background
///   `URLSession` plumbing, which async requests here do not use).
/// - **Jitter** (``Jitter/equal``): clients that back off in step after an outage retry in step
///   and knock the recovering server over again; randomising each wait spreads them out, and
///   equal jitter never waits less than half the computed backoff.
/// - **Catalog flags**: a server code is retried only when the catalog flags it
///   `CodeFlags.retryable`, and never one flagged `CodeFlags.fatal`.
///
/// ``plainExponential`` is the policy without these choices: no 429, the extended codes, no
/// jitter, no `Retry-After`.
public struct RetryPolicy: Sendable, Hashable {
    /// How the computed backoff is randomised.
    public enum Jitter: Sendable, Hashable {
        /// No randomness: exactly the computed backoff.
        case none
        /// Uniform in `0 ..< backoff` (gRPC's and AWS's "full jitter").
        case full
        /// Half fixed, half random: uniform in `backoff/2 ..< backoff`, so a retry never comes
        /// sooner than half the backoff.
        case equal
    }

    /// The total number of attempts, the first included (`3` = one try and two retries).
    /// Values below `1` mean `1`.
    public var maxAttempts: Int
    /// The backoff after the first failed attempt. Negative means zero.
    public var initialBackoff: Duration
    /// The factor the backoff grows by after each further failure. Values below `1` mean `1`.
    public var multiplier: Double
    /// The longest backoff, before jitter.
    public var maxBackoff: Duration
    /// How the backoff is randomised.
    public var jitter: Jitter
    /// HTTP statuses worth repeating: 408, 429, 500, 502, 503 and 504 by default.
    public var retryableStatusCodes: Set<Int>
    /// HTTP statuses that end the flow at once, before ``retryableStatusCodes`` is consulted
    /// (none by default; `[503]` ends an upload as soon as the server is unavailable).
    public var endingStatusCodes: Set<Int>
    /// Server codes that end the flow at once, like codes flagged `CodeFlags.fatal`.
    public var endingServerCodes: Set<Int64>
    /// `URLError` codes worth repeating (``transientURLErrorCodes`` by default).
    public var retryableURLErrorCodes: Set<URLError.Code>
    /// `POSIXError` codes worth repeating (``transientPOSIXErrorCodes`` by default).
    public var retryablePOSIXErrorCodes: Set<POSIXErrorCode>
    /// Whether a transport failure that is neither a `URLError` nor a `POSIXError` is repeated
    /// (`true` by default, as ``ModuleRespError/isRetryable`` says).
    public var retriesOtherTransportFailures: Bool
    /// The statuses whose `Retry-After` is honoured: 429 and 503 by default.
    public var retryAfterStatusCodes: Set<Int>
    /// The longest `Retry-After` wait accepted (60 s by default); a longer one ends the flow.
    public var maxRetryAfter: Duration

    /// Creates a policy; every parameter has the documented default.
    /// - Parameters:
    ///   - maxAttempts: Total attempts (3).
    ///   - initialBackoff: First backoff (0.5 s).
    ///   - multiplier: Growth factor (2).
    ///   - maxBackoff: Backoff cap (30 s).
    ///   - jitter: Randomisation (``Jitter/equal``).
    ///   - retryableStatusCodes: Statuses to repeat (408, 429, 500, 502, 503, 504).
    ///   - endingStatusCodes: Statuses that end the flow (none).
    ///   - endingServerCodes: Server codes that end the flow (none).
    ///   - retryableURLErrorCodes: `URLError` codes to repeat (``transientURLErrorCodes``).
    ///   - retryablePOSIXErrorCodes: `POSIXError` codes to repeat (``transientPOSIXErrorCodes``).
    ///   - retriesOtherTransportFailures: Repeat other transport failures (`true`).
    ///   - retryAfterStatusCodes: Statuses whose `Retry-After` is honoured (429, 503).
    ///   - maxRetryAfter: Longest `Retry-After` accepted (60 s).
    public init(
        maxAttempts: Int = 3,
        initialBackoff: Duration = .milliseconds(500),
        multiplier: Double = 2,
        maxBackoff: Duration = .seconds(30),
        jitter: Jitter = .equal,
        retryableStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504],
        endingStatusCodes: Set<Int> = [],
        endingServerCodes: Set<Int64> = [],
        retryableURLErrorCodes: Set<URLError.Code> = RetryPolicy.transientURLErrorCodes,
        retryablePOSIXErrorCodes: Set<POSIXErrorCode> = RetryPolicy.transientPOSIXErrorCodes,
        retriesOtherTransportFailures: Bool = true,
        retryAfterStatusCodes: Set<Int> = [429, 503],
        maxRetryAfter: Duration = .seconds(60)
    ) {
        self.maxAttempts = maxAttempts
        self.initialBackoff = initialBackoff
        self.multiplier = multiplier
        self.maxBackoff = maxBackoff
        self.jitter = jitter
        self.retryableStatusCodes = retryableStatusCodes
        self.endingStatusCodes = endingStatusCodes
        self.endingServerCodes = endingServerCodes
        self.retryableURLErrorCodes = retryableURLErrorCodes
        self.retryablePOSIXErrorCodes = retryablePOSIXErrorCodes
        self.retriesOtherTransportFailures = retriesOtherTransportFailures
        self.retryAfterStatusCodes = retryAfterStatusCodes
        self.maxRetryAfter = maxRetryAfter
    }

    /// The documented defaults.
    public static let `default` = RetryPolicy()

    /// Never repeats: one attempt.
    public static let never = RetryPolicy(maxAttempts: 1)

    /// The `URLError` codes retried by default: `timedOut`, `cannotFindHost`,
    /// `cannotConnectToHost`, `networkConnectionLost`, `dnsLookupFailed`,
    /// `notConnectedToInternet`, `badServerResponse`, `cannotLoadFromNetwork`,
    /// `secureConnectionFailed`, `downloadDecodingFailedMidStream`,
    /// `downloadDecodingFailedToComplete` (why these 11: see the type's discussion).
    public static let transientURLErrorCodes: Set<URLError.Code> = [
        .timedOut, .cannotFindHost, .cannotConnectToHost, .networkConnectionLost, .dnsLookupFailed,
        .notConnectedToInternet, .badServerResponse, .cannotLoadFromNetwork, .secureConnectionFailed,
        .downloadDecodingFailedMidStream, .downloadDecodingFailedToComplete,
    ]

    /// The 18 `URLError` codes some clients retry: ``transientURLErrorCodes`` plus
    /// `backgroundSessionInUseByAnotherProcess`, `backgroundSessionWasDisconnected`,
    /// `callIsActive`, `dataNotAllowed`, `internationalRoamingOff`,
    /// `serverCertificateHasBadDate` and `serverCertificateNotYetValid` (why the default leaves
    /// these seven out: see the type's discussion).
    public static let extendedTransientURLErrorCodes: Set<URLError.Code> = transientURLErrorCodes.union([
        .backgroundSessionInUseByAnotherProcess, .backgroundSessionWasDisconnected, .callIsActive,
        .dataNotAllowed, .internationalRoamingOff, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
    ])

    /// Renamed to ``extendedTransientURLErrorCodes``.
    @available(*, deprecated, renamed: "extendedTransientURLErrorCodes")
    public static let alamofireURLErrorCodes: Set<URLError.Code> = extendedTransientURLErrorCodes

    /// The `POSIXError` codes retried by default: connection reset, refused or aborted, timed
    /// out, network down or unreachable, host unreachable, broken pipe, and "try again"
    /// (`ECONNRESET`, `ECONNREFUSED`, `ECONNABORTED`, `ETIMEDOUT`, `ENETDOWN`, `ENETUNREACH`,
    /// `ENETRESET`, `EHOSTUNREACH`, `EPIPE`, `EAGAIN`).
    public static let transientPOSIXErrorCodes: Set<POSIXErrorCode> = [
        .ECONNRESET, .ECONNREFUSED, .ECONNABORTED, .ETIMEDOUT, .ENETDOWN, .ENETUNREACH, .ENETRESET,
        .EHOSTUNREACH, .EPIPE, .EAGAIN,
    ]

    /// Plain exponential backoff: 3 attempts, waiting `0.5 s × 2^n` with no jitter, statuses 408,
    /// 500, 502, 503 and 504 (not 429), the ``extendedTransientURLErrorCodes``, no `POSIXError`
    /// codes and no other transport failures, and `Retry-After` ignored. For comparison with
    /// ``default``, and for apps that want the same behaviour as a client built this way.
    public static let plainExponential = RetryPolicy(
        maxAttempts: 3, initialBackoff: .milliseconds(500), multiplier: 2, maxBackoff: .seconds(3600), jitter: .none,
        retryableStatusCodes: [408, 500, 502, 503, 504], retryableURLErrorCodes: extendedTransientURLErrorCodes,
        retryablePOSIXErrorCodes: [], retriesOtherTransportFailures: false, retryAfterStatusCodes: [])

    /// Renamed to ``plainExponential``.
    @available(*, deprecated, renamed: "plainExponential")
    public static let alamofireCompatible: RetryPolicy = plainExponential
}
