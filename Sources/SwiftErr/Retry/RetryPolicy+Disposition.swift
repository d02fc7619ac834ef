import Foundation

extension RetryPolicy {
    /// Classifies a failure (see the type's discussion for the rules).
    /// - Parameter error: The failure, adapted to a module error.
    /// - Returns: ``RetryDisposition/retry`` or why not.
    public func disposition<Code: ModuleCode>(for error: ModuleRespError<Code>) -> RetryDisposition {
        switch error {
        case .cancelled, .stoppedByUser:
            return .stop(.cancelled)
        case .base, .module, .unexpectedCode:
            // A business answer, of any module, is final; the one rule (UpstreamOutcome) calls a code
            // a failure, worth repeating, only when its catalog flags say retryable and not fatal.
            let flags = error.flags
            if flags.contains(.fatal) { return .stop(.fatalCode) }
            if let raw = error.rawCode, endingServerCodes.contains(raw) { return .stop(.endsFlow) }
            return UpstreamOutcome(flags: flags).isFailure ? .retry : .stop(.notRetryable)
        case .unacceptableStatus(let status):
            if endingStatusCodes.contains(status.statusCode) { return .stop(.endsFlow) }
            return retryableStatusCodes.contains(status.statusCode) ? .retry : .stop(.notRetryable)
        case .transportFailed(let underlying):
            // Only what the one rule calls a failure of the upstream may be repeated (not a body
            // over the reader's limit: the upstream answered); the policy's sets narrow it further.
            guard UpstreamOutcome(transportError: underlying).isFailure else { return .stop(.notRetryable) }
            let retryable: Bool
            if let timeout = underlying as? RequestTimeoutError {
                retryable = timeout.limit == .attempt && retryableURLErrorCodes.contains(.timedOut)
            } else if let urlError = underlying as? URLError {
                retryable = retryableURLErrorCodes.contains(urlError.code)
            } else if let posixError = underlying as? POSIXError {
                retryable = retryablePOSIXErrorCodes.contains(posixError.code)
            } else {
                retryable = retriesOtherTransportFailures
            }
            return retryable ? .retry : .stop(.notRetryable)
        case .invalidEnvelope, .decodingFailed, .invalidCatalog, .reauthenticationFailed:
            return .stop(.notRetryable)
        case .refused:
            // Refusing at once, without touching the upstream, is the point: waiting and asking
            // again would be the load the protection is there to stop.
            return .stop(.notRetryable)
        }
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
    /// transport's own error type, mapped to a status by a custom adapter).
    /// - Parameters:
    ///   - error: The failure, adapted.
    ///   - original: The error the attempt threw, or `nil`.
    ///   - now: The current wall-clock time, for an HTTP-date.
    /// - Returns: The server's wait, or `nil` when there is none to honour.
    public func retryAfterDelay<Code: ModuleCode>(
        for error: ModuleRespError<Code>, original: (any Error)? = nil, now: Date
    ) -> Duration? {
        guard let status = error.statusCode, retryAfterStatusCodes.contains(status),
            let answer = error.retryAfter ?? (original as? any RetryAfterProviding)?.retryAfter
        else { return nil }
        return answer.delay(from: now)
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
