import Foundation
import SwiftErr

/// The value of OpenTelemetry's `error.type` attribute for what SwiftErr reports: low-cardinality
/// and predictable, one of a set bounded by the catalog, never a number or text the server sent.
///
/// | failure | `error.type` |
/// |---|---|
/// | a code the catalog lists | `<module>.<name>`: `studyGroup.wrongTeamCode`, `base.tokenExpire` |
/// | an unlisted code inside a module's ranges | `<module>.unrecognised` |
/// | any other code | `unknown`, the tier's name |
/// | an HTTP status that is not accepted | the status, `503` (100–599; `_OTHER` outside) |
/// | no answer: refused, reset, closed | `transport` |
/// | no answer in time | `timeout` |
/// | a body over the reader's limit | `body_too_large` |
/// | a body that is not an envelope; a payload that does not decode | `invalid_envelope`; `decoding_failed` |
/// | cancelled; stopped by the person; a catalog that could not be assembled | `cancelled`; `stopped_by_user`; `invalid_catalog` |
/// | a session that could not be renewed | `reauthentication_failed` |
/// | a request refused by an ``SwiftErr/UpstreamProtection`` (``SwiftErr/ModuleRespError/refused(_:)``, or the refusal thrown by a transport) | its reason: `circuit_open`, `circuit_half_open`, `circuit_isolated`, `throttled`, `retry_budget_exhausted` |
/// | anything else | `_OTHER` |
///
/// It is not set on success: callers set the attribute only when there is a failure.
public enum ErrorType {
    /// The fallback value, as OpenTelemetry names it.
    public static let other = "_OTHER"

    /// The `error.type` of a module error.
    /// - Parameters:
    ///   - error: The error a request ended with.
    ///   - observer: Gives the label values of the catalog the codes are classified through.
    /// - Returns: The value (see the table above).
    public static func value<Code: ModuleCode>(
        for error: ModuleRespError<Code>, labelsFrom observer: ClassificationObserver
    ) -> String {
        switch error {
        case .base, .module, .unexpectedCode:
            guard let raw = error.rawCode else { return other }
            return value(for: observer.labels(for: observer.catalog.classify(raw)))
        case .unacceptableStatus(let status):
            return value(forStatus: status.statusCode)
        case .transportFailed(let underlying):
            return value(forTransportError: underlying)
        case .invalidEnvelope: return "invalid_envelope"
        case .decodingFailed: return "decoding_failed"
        case .cancelled: return "cancelled"
        case .stoppedByUser: return "stopped_by_user"
        case .invalidCatalog: return "invalid_catalog"
        case .reauthenticationFailed: return "reauthentication_failed"
        case .refused(let refusal): return refusal.reason.rawValue
        }
    }

    /// The `error.type` of a classified code: `<module>.<name>`, or the tier's name for a code
    /// outside the catalog.
    /// - Parameter labels: The code's labels.
    /// - Returns: The value.
    public static func value(for labels: CodeLabels) -> String {
        labels.tier == CodeLabels.unknownName ? labels.tier : "\(labels.module).\(labels.name)"
    }

    /// The `error.type` of an HTTP status: its number for 100–599, `_OTHER` otherwise.
    /// - Parameter status: The status code.
    /// - Returns: The value.
    public static func value(forStatus status: Int) -> String {
        (100...599).contains(status) ? String(status) : other
    }

    /// The `error.type` of an error a transport threw: an ``SwiftErr/UpstreamRefusal``'s reason,
    /// `body_too_large`, `cancelled`, or the kind of failure by ``SwiftErr/UpstreamOutcome``
    /// (`transport`, `timeout`).
    /// - Parameter error: The error.
    /// - Returns: The value.
    public static func value(forTransportError error: any Error) -> String {
        if let refusal = error as? UpstreamRefusal { return refusal.reason.rawValue }
        if error is ResponseBodyTooLargeError { return "body_too_large" }
        switch UpstreamOutcome(transportError: error) {
        case .failure(let kind): return kind.rawValue
        case .unjudged: return "cancelled"
        case .success, .answer: return other
        }
    }
}
