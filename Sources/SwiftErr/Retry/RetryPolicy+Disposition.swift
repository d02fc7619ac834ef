import Foundation

extension RetryPolicy {
    /// Classifies a failure (see the type's discussion for the rules): a server code by
    /// ``disposition(forCode:flags:)``, an unacceptable status by ``disposition(forStatus:)``, a
    /// transport failure by ``disposition(forTransportError:)``.
    /// - Parameter error: The failure, adapted to a module error.
    /// - Returns: ``RetryDisposition/retry`` or why not.
    public func disposition<Code: ModuleCode>(for error: ModuleRespError<Code>) -> RetryDisposition {
        switch error {
        case .cancelled, .stoppedByUser:
            return .stop(.cancelled)
        case .base, .module, .unexpectedCode:
            return disposition(forCode: error.rawCode, flags: error.flags)
        case .unacceptableStatus(let status):
            return disposition(forStatus: status.statusCode)
        case .transportFailed(let underlying):
            return disposition(forTransportError: underlying)
        case .invalidEnvelope, .decodingFailed, .invalidCatalog, .reauthenticationFailed:
            return .stop(.notRetryable)
        case .refused:
            // Refusing at once, without touching the upstream, is the point: waiting and asking
            // again would be the load the protection is there to stop.
            return .stop(.notRetryable)
        }
    }

    /// Classifies a server code's answer, of any module, by its catalog flags: `CodeFlags.fatal` or
    /// a code in ``endingServerCodes`` ends the flow; a code the one rule calls a failure
    /// (``UpstreamOutcome/init(flags:)``: flagged `CodeFlags.retryable`) is retried; any other is
    /// final, as a business answer does not change by asking again.
    ///
    /// The rule for a front end without a module type, such as a gateway reading envelopes with
    /// its own catalog; ``disposition(for:)`` applies it to a module error.
    /// - Parameters:
    ///   - code: The server code, or `nil` when it is not known.
    ///   - flags: The code's flags in the catalog that classified it (empty for a code it does not
    ///     list).
    /// - Returns: ``RetryDisposition/retry`` or why not.
    public func disposition(forCode code: Int64?, flags: CodeFlags) -> RetryDisposition {
        if flags.contains(.fatal) { return .stop(.fatalCode) }
        if let code, endingServerCodes.contains(code) { return .stop(.endsFlow) }
        return UpstreamOutcome(flags: flags).isFailure ? .retry : .stop(.notRetryable)
    }

    /// Classifies an HTTP status the client does not accept: one in ``endingStatusCodes`` ends the
    /// flow, one in ``retryableStatusCodes`` is retried, any other is final.
    /// - Parameter statusCode: The status.
    /// - Returns: ``RetryDisposition/retry`` or why not.
    public func disposition(forStatus statusCode: Int) -> RetryDisposition {
        if endingStatusCodes.contains(statusCode) { return .stop(.endsFlow) }
        return retryableStatusCodes.contains(statusCode) ? .retry : .stop(.notRetryable)
    }

    /// Classifies an error a send threw (a transport's, or a ``RequestTimeoutError``).
    ///
    /// Only what the one rule calls a failure of the upstream
    /// (``UpstreamOutcome/init(transportError:)``) may be repeated — not a body over a reader's
    /// limit (the upstream answered), a cancellation or a request past its deadline — and the
    /// policy's sets narrow it further: a `URLError` in ``retryableURLErrorCodes``, a `POSIXError`
    /// in ``retryablePOSIXErrorCodes``, an attempt out of time when `URLError.timedOut` is
    /// retryable, any other error when ``retriesOtherTransportFailures`` is set.
    /// - Parameter error: The error the send threw.
    /// - Returns: ``RetryDisposition/retry`` or why not.
    public func disposition(forTransportError error: any Error) -> RetryDisposition {
        guard UpstreamOutcome(transportError: error).isFailure else { return .stop(.notRetryable) }
        let retryable: Bool
        if let timeout = error as? RequestTimeoutError {
            retryable = timeout.limit == .attempt && retryableURLErrorCodes.contains(.timedOut)
        } else if let urlError = error as? URLError {
            retryable = retryableURLErrorCodes.contains(urlError.code)
        } else if let posixError = error as? POSIXError {
            retryable = retryablePOSIXErrorCodes.contains(posixError.code)
        } else {
            retryable = retriesOtherTransportFailures
        }
        return retryable ? .retry : .stop(.notRetryable)
    }

    /// The backoff after a failed attempt, before any `Retry-After`.
    /// - Parameters:
    ///   - attempt: The failed attempt, 1-based (values below 1 mean 1).
    ///   - unitRandom: A random number in `0 ..< 1` for the jitter (clamped into that range).
    /// - Returns: `min(initialBackoff × multiplier^(attempt-1), maxBackoff)`, jittered.
    public func backoff(afterAttempt attempt: Int, unitRandom: Double) -> Duration {
        let initial = max(0, Self.seconds(initialBackoff))
        let cap = max(0, Self.seconds(maxBackoff))
        let growth = Foundation.pow(max(1, multiplier), Double(max(1, attempt) - 1))
        let base = min(initial * growth, cap)  // `inf` and `nan` cannot survive min with a finite cap
        let u = unitRandom.isNaN ? 0 : min(max(unitRandom, 0), 1.0.nextDown)
        let jittered: Double
        switch jitter {
        case .none: jittered = base
        case .full: jittered = base * u
        case .equal: jittered = base / 2 + base / 2 * u
        }
        return Self.duration(seconds: jittered)
    }

    /// Converts non-negative seconds to a `Duration` without overflowing `Int64` nanoseconds.
    static func duration(seconds: Double) -> Duration {
        guard seconds.isFinite, seconds > 0 else { return .zero }
        if seconds < 9e9 { return .nanoseconds(Int64(seconds * 1e9)) }
        return .seconds(Int64(min(seconds, 9.2e18)))
    }

    /// The wait the server asked for, when this policy honours it for the failure.
    ///
    /// The answer is read from the typed error (``ModuleRespError/retryAfter``), and otherwise
    /// from the error the attempt threw when that conforms to ``RetryAfterProviding`` (a
    /// transport's own error type, mapped to a status by a custom adapter); then
    /// ``retryAfterDelay(forStatus:retryAfter:now:)`` decides.
    /// - Parameters:
    ///   - error: The failure, adapted.
    ///   - original: The error the attempt threw, or `nil`.
    ///   - now: The current wall-clock time, for an HTTP-date.
    /// - Returns: The server's wait, or `nil` when there is none to honour.
    public func retryAfterDelay<Code: ModuleCode>(
        for error: ModuleRespError<Code>, original: (any Error)? = nil, now: Date
    ) -> Duration? {
        guard let status = error.statusCode, retryAfterStatusCodes.contains(status) else { return nil }
        return retryAfterDelay(
            forStatus: status, retryAfter: error.retryAfter ?? (original as? any RetryAfterProviding)?.retryAfter,
            now: now)
    }

    /// The wait a server asked for with a status, when this policy honours `Retry-After` on it
    /// (``retryAfterStatusCodes``).
    /// - Parameters:
    ///   - statusCode: The status.
    ///   - retryAfter: The answer's `Retry-After`, or `nil` for none.
    ///   - now: The current wall-clock time, for an HTTP-date.
    /// - Returns: The server's wait (zero for a date already past), or `nil` when there is none to
    ///   honour.
    public func retryAfterDelay(forStatus statusCode: Int, retryAfter: RetryAfter?, now: Date) -> Duration? {
        guard retryAfterStatusCodes.contains(statusCode), let retryAfter else { return nil }
        return retryAfter.delay(from: now)
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
