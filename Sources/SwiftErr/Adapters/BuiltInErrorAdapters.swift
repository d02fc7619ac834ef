import Foundation

/// `CancellationError` → ``ModuleRespError/cancelled``.
public struct CancellationErrorAdapter<Code: ModuleCode>: ErrorAdapter {
    /// Creates the adapter.
    public init() {}
    /// - Parameter error: The cancellation.
    /// - Returns: ``ModuleRespError/cancelled``.
    public func adapt(_ error: CancellationError) -> ModuleRespError<Code>? { .cancelled }
}

/// `URLError` → ``ModuleRespError/cancelled`` for `.cancelled` and
/// `.userCancelledAuthentication`, otherwise ``ModuleRespError/transportFailed(underlying:)``
/// keeping the `URLError` (whose code the retry policy reads).
public struct URLErrorAdapter<Code: ModuleCode>: ErrorAdapter {
    /// Creates the adapter.
    public init() {}
    /// - Parameter error: The URL loading error.
    /// - Returns: The cancellation or the transport failure.
    public func adapt(_ error: URLError) -> ModuleRespError<Code>? {
        switch error.code {
        case .cancelled, .userCancelledAuthentication: return .cancelled
        default: return .transportFailed(underlying: error)
        }
    }
}

/// `DecodingError` → ``ModuleRespError/decodingFailed(underlying:)`` keeping the coding path.
public struct DecodingErrorAdapter<Code: ModuleCode>: ErrorAdapter {
    /// Creates the adapter.
    public init() {}
    /// - Parameter error: The decoder's error.
    /// - Returns: The decoding failure.
    public func adapt(_ error: DecodingError) -> ModuleRespError<Code>? { .decodingFailed(underlying: error) }
}

/// `POSIXError` → ``ModuleRespError/cancelled`` for `ECANCELED`, otherwise
/// ``ModuleRespError/transportFailed(underlying:)`` keeping the `POSIXError`.
public struct POSIXErrorAdapter<Code: ModuleCode>: ErrorAdapter {
    /// Creates the adapter.
    public init() {}
    /// - Parameter error: The POSIX error.
    /// - Returns: The cancellation or the transport failure.
    public func adapt(_ error: POSIXError) -> ModuleRespError<Code>? {
        error.code == .ECANCELED ? .cancelled : .transportFailed(underlying: error)
    }

    /// Converts a raw `errno` value, as a C call reports it.
    /// - Parameter errno: The `errno` value.
    /// - Returns: ``ModuleRespError/cancelled`` for `ECANCELED`; otherwise a transport failure
    ///   keeping a `POSIXError`, or an `NSError` in `NSPOSIXErrorDomain` for a number this
    ///   platform does not name.
    public func adapt(errno: Int32) -> ModuleRespError<Code> {
        if let code = POSIXErrorCode(rawValue: errno) {
            return adapt(POSIXError(code)) ?? .transportFailed(underlying: POSIXError(code))
        }
        return .transportFailed(underlying: NSError(domain: NSPOSIXErrorDomain, code: Int(errno)))
    }
}

/// ``HTTPStatusError`` → ``ModuleRespError/unacceptableStatus(_:)-enum.case``, keeping the status error with
/// its `Retry-After` answer, which ``Retrier`` honours.
public struct HTTPStatusErrorAdapter<Code: ModuleCode>: ErrorAdapter {
    /// Creates the adapter.
    public init() {}
    /// - Parameter error: The status error.
    /// - Returns: The unacceptable status.
    public func adapt(_ error: HTTPStatusError) -> ModuleRespError<Code>? { .unacceptableStatus(error) }
}

/// ``ReauthenticationError`` → ``ModuleRespError/reauthenticationFailed(_:)``, so a session's
/// failure to renew means the same in every pipeline (an OpenAPI middleware, an error channel).
public struct ReauthenticationErrorAdapter<Code: ModuleCode>: ErrorAdapter {
    /// Creates the adapter.
    public init() {}
    /// - Parameter error: The session's failure.
    /// - Returns: The re-authentication failure.
    public func adapt(_ error: ReauthenticationError) -> ModuleRespError<Code>? { .reauthenticationFailed(error) }
}

/// ``UpstreamRefusal`` → ``ModuleRespError/refused(_:)``, so a refusal thrown by code that consults
/// an ``UpstreamProtection`` itself (inside a ``Retrier``'s operation, an error channel) is the
/// typed refusal, never retried, rather than a transport failure.
public struct UpstreamRefusalAdapter<Code: ModuleCode>: ErrorAdapter {
    /// Creates the adapter.
    public init() {}
    /// - Parameter error: The refusal.
    /// - Returns: The refused request.
    public func adapt(_ error: UpstreamRefusal) -> ModuleRespError<Code>? { .refused(error) }
}
