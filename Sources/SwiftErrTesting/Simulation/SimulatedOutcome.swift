import SwiftErr

/// How one request of a simulation ended, as its caller saw it.
public enum SimulatedOutcome: Sendable, Hashable {
    /// The upstream's success.
    case success
    /// An answer of the upstream that is not a success: a business code, a base code, a 4xx.
    case answer
    /// Refused by a protection before anything was sent (the circuit open, shed by the throttle).
    case refused
    /// No usable answer after the retries: a transport failure, a time-out, a 5xx.
    case failed
    /// The session could not be renewed.
    case reauthenticationFailed
    /// Cancelled.
    case cancelled

    /// The outcome of a request's result.
    /// - Parameter result: What the request returned or threw.
    public init<Model, Code: ModuleCode>(_ result: Result<Model, ModuleRespError<Code>>) {
        switch result {
        case .success: self = .success
        case .failure(let error): self.init(error)
        }
    }

    /// The outcome of an answer passed on as it came, as a middleware or a gateway passes it on: a
    /// 2xx is the upstream's success when its envelope's code is the success code (or no code was
    /// read) and an answer otherwise; a 5xx or a 429 is a failure; any other status an answer.
    /// - Parameters:
    ///   - status: The HTTP status passed on.
    ///   - code: The envelope's code, when one was read.
    public init(status: Int, code: Int64? = nil) {
        switch status {
        case 200..<300: self = (code ?? 0) == 0 ? .success : .answer
        case 429, 500...: self = .failed
        default: self = .answer
        }
    }

    /// The outcome of a request's error.
    /// - Parameter error: What the request threw.
    public init<Code: ModuleCode>(_ error: ModuleRespError<Code>) {
        switch error {
        case .refused: self = .refused
        case .reauthenticationFailed: self = .reauthenticationFailed
        case .cancelled, .stoppedByUser: self = .cancelled
        case .base, .module, .unexpectedCode: self = .answer
        case .unacceptableStatus(let status):
            self = status.statusCode >= 500 || status.statusCode == 429 ? .failed : .answer
        case .transportFailed, .invalidEnvelope, .decodingFailed, .invalidCatalog: self = .failed
        }
    }
}
