import Foundation

/// What one answer of the upstream means, as the front end of a ``RequestPipeline`` reads it: what
/// the caller gets, what the upstream's protection learns, and what the session needs to know.
///
/// A ``ResponseClient`` reads the envelope and decodes the payload; the OpenAPI middleware passes
/// unclassified responses on; a gateway passes every answer on. Each returns a verdict, and the
/// pipeline decides the rest by one rule: whether the answer asks for re-authentication (a status
/// in the session's `statusCodes`, or a code whose ``flags`` contain `CodeFlags.reauthenticate`),
/// whether a failure is sent again, and which protection outcome is recorded.
@_spi(Pipeline)
public struct PipelineVerdict<Value, Failure: Error> {
    /// What the caller gets if this answer ends the request.
    public var result: Result<Value, Failure>
    /// What the answer says about the upstream, for its protection.
    public var outcome: UpstreamOutcome
    /// The answer's HTTP status, when it has one.
    public var statusCode: Int?
    /// The server code the answer carried, when one was read.
    public var code: Int64?
    /// The code's flags in the module's catalog (empty for a code the catalog does not list).
    public var flags: CodeFlags
    /// The server's message, as sent, for the session's refresh event.
    public var serverMessage: String?
    /// The event the base handler receives for this answer, unless the session handles it.
    public var baseEvent: BaseCodeEvent?

    /// Creates a verdict.
    /// - Parameters:
    ///   - result: What the caller gets if this answer ends the request.
    ///   - outcome: What the answer says about the upstream.
    ///   - statusCode: The HTTP status, if any.
    ///   - code: The server code, if one was read.
    ///   - flags: The code's catalog flags.
    ///   - serverMessage: The server's message.
    ///   - baseEvent: The base handler's event for the answer, if any.
    public init(
        result: Result<Value, Failure>, outcome: UpstreamOutcome, statusCode: Int? = nil, code: Int64? = nil,
        flags: CodeFlags = [], serverMessage: String? = nil, baseEvent: BaseCodeEvent? = nil
    ) {
        self.result = result
        self.outcome = outcome
        self.statusCode = statusCode
        self.code = code
        self.flags = flags
        self.serverMessage = serverMessage
        self.baseEvent = baseEvent
    }
}

/// Why a ``RequestPipeline`` ended a request, or an attempt, without an answer that the front end
/// judged: what the front end's ``PipelineFailures/make`` turns into its own error type.
@_spi(Pipeline)
public enum PipelineStop: Sendable {
    /// The send threw (the transport's error), or ran out of a time limit (a
    /// ``RequestTimeoutError``).
    case transport(any Error)
    /// The upstream's protection refused the request before anything was sent.
    case refused(UpstreamRefusal)
    /// The session could not renew its credential, or the server refused the replay.
    case reauthenticationFailed(ReauthenticationError)
    /// The task was cancelled.
    case cancelled
    /// The decision hook answered stop.
    case stoppedByUser(UserStoppedError)
}

/// How a front end's failures are made and judged: the part of the one retry rule that depends on
/// the front end's error type.
@_spi(Pipeline)
public struct PipelineFailures<Failure: Error> {
    /// The front end's error for a stop of the pipeline.
    public var make: (PipelineStop) -> Failure
    /// Whether a failure may be sent again (the error the send threw is given when there was one).
    public var disposition: (Failure, (any Error)?) -> RetryDisposition
    /// The wait the server asked for (`Retry-After`), when the policy honours it for the failure.
    public var serverDelay: (Failure, (any Error)?, Date) -> Duration?
    /// Asked before each retry; `nil` retries without asking.
    public var decide: ((RetryQuestion<Failure>) async -> RetryDecision)?

    /// Creates the rules.
    /// - Parameters:
    ///   - make: The error for a stop of the pipeline.
    ///   - disposition: Whether a failure may be sent again.
    ///   - serverDelay: The server's wait for a failure, or `nil`.
    ///   - decide: The decision hook, or `nil`.
    public init(
        make: @escaping (PipelineStop) -> Failure, disposition: @escaping (Failure, (any Error)?) -> RetryDisposition,
        serverDelay: @escaping (Failure, (any Error)?, Date) -> Duration? = { _, _, _ in nil },
        decide: ((RetryQuestion<Failure>) async -> RetryDecision)? = nil
    ) {
        self.make = make
        self.disposition = disposition
        self.serverDelay = serverDelay
        self.decide = decide
    }
}

/// What the decision hook of a pipeline is asked before a retry.
@_spi(Pipeline)
public struct RetryQuestion<Failure: Error> {
    /// The attempt that failed, 1-based.
    public var attempt: Int
    /// Its failure.
    public var failure: Failure
    /// The error the send threw, or the failure itself when the answer was judged a failure.
    public var underlying: any Error
    /// The wait before the next attempt.
    public var delay: Duration
    /// Whether the wait is the server's `Retry-After`.
    public var isServerRequestedDelay: Bool
}

/// How a request ended: its result, and how many times it went to the transport.
@_spi(Pipeline)
public struct PipelineEnd<Value, Failure: Error> {
    /// The value of the answer that ended the request, or the failure.
    public var result: Result<Value, Failure>
    /// The sends: attempts and the replay after a refresh (0 when nothing was sent).
    public var sends: Int
}
