// Context "observability": a service's metrics, tracing and upstream protection, for the listings
// of Integrations/SwiftErrObservability (with the context "server").
import Logging
import Metrics
import SwiftErr
import SwiftErrObservability
import Tracing

/// The service's metrics backend (a Prometheus factory in a real service).
public let prometheus: any MetricsFactory = MetricsSystem.factory
public let bytes = Array(#"{"ret": 11001, "msg": "Your session has expired."}"#.utf8)
public let responseBytes = bytes
public let span = InstrumentationSystem.tracer.startAnySpan("GET /class")
public let observer = ClassificationObserver(logger: Logger(label: "orders"))
public let operations = OperationObserver(observer: observer)
public let upstreams = try! UpstreamProtections()
public let protection = UpstreamProtection()
public let attempt = 1
public let attempts = 1

/// Sends the request upstream and judges the answer.
public func callUpstream() async -> UpstreamOutcome { .success }
