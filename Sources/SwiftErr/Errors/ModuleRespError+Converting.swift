extension ModuleRespError {
    /// The same failure for another module's request: what a ``Retrier`` or channel for `Code`
    /// makes of an error thrown by a request typed for another module.
    ///
    /// Server codes keep their number and are classified again for `Code` (a code `Code` lists
    /// becomes ``module(_:)``, a base code stays ``base(_:)``, anything else is
    /// ``unexpectedCode(_:)``), so a business answer stays a business answer and is never mistaken
    /// for a transport failure; the server's message goes with the code. Every other failure keeps
    /// its case and its cause.
    /// - Parameter error: The failure typed for another module.
    public init<Other: ModuleCode>(converting error: ModuleRespError<Other>) {
        switch error {
        case .base(let answer): self = .base(answer)
        case .module(let answer): self = Self.reclassified(answer.replacingValue(answer.value.code))
        case .unexpectedCode(let answer): self = Self.reclassified(answer)
        case .transportFailed(let underlying): self = .transportFailed(underlying: underlying)
        case .cancelled: self = .cancelled
        case .stoppedByUser(let stop): self = .stoppedByUser(stop)
        case .unacceptableStatus(let status): self = .unacceptableStatus(status)
        case .invalidEnvelope(let failure): self = .invalidEnvelope(failure)
        case .decodingFailed(let underlying): self = .decodingFailed(underlying: underlying)
        case .invalidCatalog(let failure): self = .invalidCatalog(failure)
        case .reauthenticationFailed(let failure): self = .reauthenticationFailed(failure)
        case .refused(let refusal): self = .refused(refusal)
        }
    }

    /// A server code as `Code` sees it; never success, and never loses the number or the message.
    private static func reclassified(_ answer: ServerAnswer<Int64>) -> Self {
        switch Code.classify(answer.value) {
        case .base(let code): return .base(answer.replacingValue(code))
        case .module(let code): return .module(answer.replacingValue(code))
        case .success, .unexpected, .invalidCatalog: return .unexpectedCode(answer)
        }
    }
}

/// A ``ModuleRespError`` of any module, seen through an existential so that an
/// ``ErrorAdapterRegistry`` can convert it to its own module's error.
protocol ModuleRespErrorConverting: Error {
    /// The same failure for `target`'s request (``ModuleRespError/init(converting:)``).
    func converted<Target: ModuleCode>(to target: Target.Type) -> ModuleRespError<Target>
    /// The policy's disposition, judged in the error's own module, whose catalog holds the flags
    /// of its codes (another module's catalog may not list them).
    func disposition(by policy: RetryPolicy) -> RetryDisposition
}

extension ModuleRespError: ModuleRespErrorConverting {
    func converted<Target: ModuleCode>(to target: Target.Type) -> ModuleRespError<Target> {
        ModuleRespError<Target>(converting: self)
    }

    func disposition(by policy: RetryPolicy) -> RetryDisposition {
        policy.disposition(for: self)
    }
}
