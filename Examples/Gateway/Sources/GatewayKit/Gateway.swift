import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import Prometheus
@_spi(Pipeline) import SwiftErr
import SwiftErrAsyncHTTPClient
import SwiftErrDefaultCatalog
import SwiftErrObservability

/// The gateway's settings.
public struct GatewayConfiguration: Sendable {
    /// The address to listen on (`127.0.0.1`).
    public var host: String
    /// The port to listen on; `0` picks a free one, reported to `onServerRunning`.
    public var port: Int
    /// The upstream's base URL, without a trailing slash (`http://127.0.0.1:8081`).
    public var upstream: String
    /// Whether upstream responses are classified. Off, every response is passed through as it came
    /// (the load test's baseline): no envelope is read, nothing is counted, tokenExpire stays 200,
    /// and, with no outcome judged, nothing is retried and the upstream has no protection.
    public var classification: Bool
    /// The most bytes of a request or response body the gateway holds (1 MiB).
    public var maxBodyBytes: Int
    /// The time an upstream exchange may take, body included (10 s).
    public var upstreamTimeout: Duration
    /// The codes answered with 401 and their catalog message (tokenExpire, 11001).
    public var unauthorizedCodes: Set<Int64>
    /// The most connections to the upstream (64).
    public var upstreamConnections: Int
    /// How often and after how long a request safe to repeat (GET, HEAD, OPTIONS, PUT, DELETE,
    /// TRACE, or one with an `Idempotency-Key`) is sent again, by SwiftErr's one retry rule
    /// (``SwiftErr/RetryPolicy/disposition(forStatus:)``,
    /// ``SwiftErr/RetryPolicy/disposition(forTransportError:)`` and, for a code, its flags in the
    /// gateway's catalog, ``SwiftErr/RetryPolicy/disposition(forCode:flags:)``), all within
    /// ``upstreamTimeout`` and while the upstream's
    /// protection would admit the retry: ``retryPolicy`` by default. ``SwiftErr/RetryPolicy/never``
    /// sends each request once.
    public var retryPolicy: RetryPolicy
    /// The upstream's retry budget (``SwiftErr/RetryBudget/default``), or `nil` for none: retries are
    /// then limited by ``retryPolicy`` alone.
    public var retryBudget: RetryBudget?
    /// The upstream's circuit breaker (``SwiftErr/CircuitBreaker/default``), or `nil` for none.
    public var circuitBreaker: CircuitBreaker?
    /// The upstream's adaptive throttle (``SwiftErr/AdaptiveThrottle/default``), or `nil` for none.
    public var throttle: AdaptiveThrottle?
    /// The catalog file that ``GatewayCatalog/reload(trigger:)`` reads again on `SIGHUP` and on
    /// `POST /admin/reload-catalog`, or `nil` when the gateway runs on the catalog it was given
    /// (the built-in one by default), which nothing reloads.
    public var catalogFile: String?
    /// The port of the admin listener (`POST /admin/reload-catalog`, `GET /admin/catalog`), always
    /// bound to `127.0.0.1` whatever ``host`` is; `0` picks a free one; `nil` (the default) runs
    /// no admin listener.
    public var adminPort: Int?
    /// CPU time burned on each classified answer, on top of classifying it: zero, always, but in
    /// the load test's self-test, which plants a classification that much dearer and checks that
    /// the cost gate catches it (`scripts/services/gateway-loadtest.sh --self-test`).
    public var plantedClassificationCost: Duration

    /// The retry policy of a gateway: 3 attempts, 25 ms doubling up to 250 ms, fully jittered
    /// (Envoy's retry back-off), the policy's default statuses (408, 429, 500, 502, 503, 504) and
    /// transport failures. An upstream's `Retry-After` is not waited for: a gateway holding a client's
    /// request for seconds ties up its connections, so the upstream's last answer, with its
    /// `Retry-After`, goes to the client, who decides.
    public static let retryPolicy = RetryPolicy(
        maxAttempts: 3, initialBackoff: .milliseconds(25), multiplier: 2, maxBackoff: .milliseconds(250), jitter: .full,
        retryAfterStatusCodes: [])

    /// Creates a configuration; every parameter but the upstream has the documented default.
    /// - Parameters:
    ///   - host: The address to listen on.
    ///   - port: The port to listen on (`0` for a free one).
    ///   - upstream: The upstream's base URL.
    ///   - classification: Whether upstream responses are classified.
    ///   - maxBodyBytes: The most bytes of a body the gateway holds.
    ///   - upstreamTimeout: The time an upstream exchange may take.
    ///   - unauthorizedCodes: The codes answered with 401.
    ///   - upstreamConnections: The most connections to the upstream.
    ///   - retryPolicy: Attempts and back-off of requests safe to repeat.
    ///   - retryBudget: The upstream's retry budget, or `nil`.
    ///   - circuitBreaker: The upstream's circuit breaker, or `nil`.
    ///   - throttle: The upstream's adaptive throttle, or `nil`.
    ///   - catalogFile: The catalog file reloads read, or `nil`.
    ///   - adminPort: The admin listener's port on 127.0.0.1, or `nil` for none.
    ///   - plantedClassificationCost: CPU time burned per classified answer (zero; a load-test
    ///     self-test setting).
    public init(
        host: String = "127.0.0.1", port: Int = 8080, upstream: String, classification: Bool = true,
        maxBodyBytes: Int = 1 << 20, upstreamTimeout: Duration = .seconds(10),
        unauthorizedCodes: Set<Int64> = [BaseCode.tokenExpire.rawValue], upstreamConnections: Int = 64,
        retryPolicy: RetryPolicy = GatewayConfiguration.retryPolicy, retryBudget: RetryBudget? = .default,
        circuitBreaker: CircuitBreaker? = .default, throttle: AdaptiveThrottle? = .default,
        catalogFile: String? = nil, adminPort: Int? = nil, plantedClassificationCost: Duration = .zero
    ) {
        self.host = host
        self.port = port
        self.upstream = upstream.hasSuffix("/") ? String(upstream.dropLast()) : upstream
        self.classification = classification
        self.maxBodyBytes = maxBodyBytes
        self.upstreamTimeout = upstreamTimeout
        self.unauthorizedCodes = unauthorizedCodes
        self.upstreamConnections = upstreamConnections
        self.retryPolicy = retryPolicy
        self.retryBudget = retryBudget
        self.circuitBreaker = circuitBreaker
        self.throttle = throttle
        self.catalogFile = catalogFile
        self.adminPort = adminPort
        self.plantedClassificationCost = plantedClassificationCost
    }

    /// The settings of the `HTTPClient` that talks to the upstream: at most ``upstreamConnections``
    /// connections, and no connection retried by the client's pool. With the pool's retries
    /// (async-http-client's default), a request to an upstream that refuses connections waits in
    /// the pool, which tries to connect again and again with back-off, until the request's deadline:
    /// 10 s for an answer the kernel gives at once. The gateway retries, within its budget and
    /// breaker, instead.
    public var httpClientConfiguration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: upstreamConnections)
        configuration.connectionPool.retryConnectionEstablishment = false
        return configuration
    }
}

/// A Hummingbird service in front of an envelope API: it proxies `/api/*` to the upstream,
/// classifies every upstream answer with SwiftErr, answers tokenExpire with 401 and its catalog
/// message, passes every other outcome through, and serves `/metrics` in Prometheus' text format.
///
/// ```swift
/// let httpClient = HTTPClient(eventLoopGroupProvider: .singleton)
/// let gateway = Gateway(configuration: .init(upstream: "http://127.0.0.1:8081"), httpClient: httpClient)
/// try await gateway.application().runService()
/// try await httpClient.shutdown()
/// ```
///
/// | route | answer |
/// |---|---|
/// | `/api/**`, any method | the upstream's answer to the same method, path, query, header fields and body; 401 for tokenExpire |
/// | `GET /metrics` | the `swifterr_*` series of ``ClassificationObserver`` and of the upstream's protection (`swifterr_circuit_state`, `swifterr_shed_requests_total`, …), and `gateway_upstream_unclassified_total{reason}` (Prometheus text format 0.0.4) |
/// | `GET /health` | `200 ok` |
///
/// The catalog it classifies with is ``catalog``: reloaded from ``GatewayConfiguration/catalogFile``
/// on `SIGHUP` (``hangupReloads()``) and on `POST /admin/reload-catalog` of the admin listener
/// (``adminApplication(logger:onServerRunning:)``, on 127.0.0.1 only), the old catalog kept when
/// the new file is bad; `/metrics` shows it as `swifterr_catalog_info{name, identity} 1`.
///
/// A request or response body over ``GatewayConfiguration/maxBodyBytes`` is refused (413 for the
/// request, 502 for the upstream's answer); an upstream that cannot be reached, or does not answer
/// in full within ``GatewayConfiguration/upstreamTimeout``, is 502; a request the upstream's
/// ``protection`` refuses is 503 with `Retry-After`. Those answers carry a JSON `{"error": …}` body.
///
/// Every `/api` request runs through SwiftErr's one request pipeline (`RequestPipeline`), as a
/// `ResponseClient`'s do: the upstream's protection, the attempts, the retries and what the
/// protection learns are decided there; the gateway only sends (``UpstreamExchange``) and reads
/// the answers.
public struct Gateway: Sendable {
    /// The settings.
    public let configuration: GatewayConfiguration
    /// The client that talks to the upstream (the caller owns it and shuts it down), or `nil` for a
    /// gateway made with an exchange of the caller's.
    public let httpClient: HTTPClient?
    /// How each attempt is sent to the upstream.
    public let exchange: UpstreamExchange
    /// The registry `/metrics` serves.
    public let registry: PrometheusCollectorRegistry
    /// The catalog the gateway classifies with, its reloads and their series.
    public let catalog: GatewayCatalog
    /// Classifies upstream answers with the catalog in use now, or `nil` when classification is off.
    public var observer: ClassificationObserver? { catalog.current.observer }
    /// The upstream answers that are not classified, by ``UnclassifiedReason``, or `nil` when
    /// classification is off: with ``observer``'s counts, every `/api` request is counted once.
    let unclassified: [UnclassifiedReason: Prometheus.Counter]?
    /// The retry budget, circuit breaker and throttle of each upstream, keyed by host and port, or
    /// `nil` when all three are off or classification is: what the pipeline admits each attempt
    /// with and tells each outcome.
    public let protections: UpstreamProtections?
    /// The pipeline every `/api` request runs through: ``GatewayConfiguration/retryPolicy``,
    /// ``GatewayConfiguration/upstreamTimeout`` as the deadline, ``protections``, and the
    /// protection's decisions counted in `/metrics`.
    let pipeline: RequestPipeline
    /// The upstream every request goes to, as ``protections`` are keyed: the configured URL's host
    /// and port (`nil` for a URL without a host). Its `description` is the `upstream` label of the
    /// protection's series.
    public let upstream: SwiftErr.Upstream?
    /// The configured upstream's URL, the URL of every request as the pipeline sees it.
    private let upstreamURL: URL

    /// The protection of the configured upstream, as it is now: `nil` before the first request, or
    /// when there is none.
    public var protection: UpstreamProtection? { upstream.flatMap { protections?.protection(for: $0) } }

    /// Why an upstream answer was not classified: the label values of
    /// `gateway_upstream_unclassified_total{reason}`, a fixed set whatever the upstream sends.
    public enum UnclassifiedReason: String, Sendable, CaseIterable {
        /// A 1xx status.
        case status1xx = "status_1xx"
        /// A 3xx status.
        case status3xx = "status_3xx"
        /// A 4xx status.
        case status4xx = "status_4xx"
        /// A 5xx status, or one outside 100–599.
        case status5xx = "status_5xx"
        /// A body over ``GatewayConfiguration/maxBodyBytes``, answered 502.
        case bodyTooLarge = "body_too_large"
        /// No answer: refused, reset or timed out, answered 502.
        case noAnswer = "no_answer"

        /// The reason for a status SwiftErr does not classify (anything but 2xx).
        /// - Parameter status: The upstream's status code.
        public init(status: Int) {
            switch status {
            case 100..<200: self = .status1xx
            case 300..<400: self = .status3xx
            case 400..<500: self = .status4xx
            default: self = .status5xx
            }
        }
    }

    /// The counter of upstream answers that are not classified, as Prometheus names it (a value
    /// made on each use: the descriptor type is not `Sendable`, and it is read only at start-up).
    static var unclassifiedMetric: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "gateway", subsystem: "upstream", metricName: "unclassified", unitName: "total",
            helpText: "Upstream answers the gateway passed on without classifying them, by reason.")
    }

    /// The name of the counter of upstream answers that are not classified:
    /// `gateway_upstream_unclassified_total`.
    public static var unclassifiedMetricName: String { unclassifiedMetric.name }

    /// Header fields that belong to one connection (RFC 9110, 7.6.1) and are not forwarded, plus
    /// `Host` and `Content-Length`, which the next hop sets.
    static let connectionFields: Set<String> = [
        "connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "proxy-connection", "te", "trailer",
        "transfer-encoding", "upgrade", "host", "content-length",
    ]

    /// Creates a gateway that sends to its upstream through async-http-client.
    /// - Parameters:
    ///   - configuration: The settings.
    ///   - httpClient: The client for the upstream (its configuration:
    ///     ``GatewayConfiguration/httpClientConfiguration``).
    ///   - catalog: The catalog to start with (the built-in catalog by default; load
    ///     ``GatewayConfiguration/catalogFile`` with `ReloadableCatalog(contentsOfFile:)`).
    ///   - registry: The Prometheus registry the metrics go to and `/metrics` serves (a new one).
    ///   - logger: Where classified failures are logged, at `.debug`, and catalog reloads.
    public init(
        configuration: GatewayConfiguration, httpClient: HTTPClient,
        catalog: ReloadableCatalog = ReloadableCatalog(Catalog.builtIn),
        registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
        logger: Logger = Logger(label: "gateway")
    ) {
        let exchange = UpstreamExchange.httpClient(
            httpClient, maxBodyBytes: configuration.maxBodyBytes, timeout: configuration.upstreamTimeout)
        self.init(
            configuration: configuration, httpClient: httpClient, exchange: exchange, catalog: catalog,
            registry: registry, logger: logger, clock: .continuous
        ) { budget, breaker, throttle in
            UpstreamProtection(retryBudget: budget, circuitBreaker: breaker, throttle: throttle)
        }
    }

    /// Creates a gateway that sends to its upstream through `exchange`: tests and simulations run
    /// the real proxy without sockets.
    /// - Parameters:
    ///   - configuration: The settings.
    ///   - exchange: Sends one attempt and returns the whole answer.
    ///   - catalog: The catalog to start with (the built-in catalog by default).
    ///   - registry: The Prometheus registry the metrics go to and `/metrics` serves (a new one).
    ///   - logger: Where classified failures are logged, at `.debug`, and catalog reloads.
    public init(
        configuration: GatewayConfiguration, exchange: UpstreamExchange,
        catalog: ReloadableCatalog = ReloadableCatalog(Catalog.builtIn),
        registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
        logger: Logger = Logger(label: "gateway")
    ) {
        self.init(
            configuration: configuration, httpClient: nil, exchange: exchange, catalog: catalog, registry: registry,
            logger: logger, clock: .continuous
        ) { budget, breaker, throttle in
            UpstreamProtection(retryBudget: budget, circuitBreaker: breaker, throttle: throttle)
        }
    }

    /// Creates a gateway that sends through `exchange` and runs on `clock` (a `ManualClock` of
    /// SwiftErrTesting, in a simulation): the waits between attempts, the upstream limit, and the
    /// windows and breaks of the upstream's protection.
    /// - Parameters:
    ///   - configuration: The settings.
    ///   - exchange: Sends one attempt and returns the whole answer.
    ///   - clock: The clock everything runs on.
    ///   - random: A random number in `0 ..< 1`, for the retries' jitter and the throttle.
    ///   - catalog: The catalog to start with (the built-in catalog by default).
    ///   - registry: The Prometheus registry the metrics go to and `/metrics` serves (a new one).
    ///   - logger: Where classified failures are logged, at `.debug`, and catalog reloads.
    public init<C: Clock<Duration>>(
        configuration: GatewayConfiguration, exchange: UpstreamExchange, clock: C,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        catalog: ReloadableCatalog = ReloadableCatalog(Catalog.builtIn),
        registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
        logger: Logger = Logger(label: "gateway")
    ) {
        self.init(
            configuration: configuration, httpClient: nil, exchange: exchange, catalog: catalog, registry: registry,
            logger: logger, clock: PipelineClock(clock, random: random)
        ) { budget, breaker, throttle in
            UpstreamProtection(
                retryBudget: budget, circuitBreaker: breaker, throttle: throttle, clock: clock, random: random)
        }
    }

    private init(
        configuration: GatewayConfiguration, httpClient: HTTPClient?, exchange: UpstreamExchange,
        catalog: ReloadableCatalog, registry: PrometheusCollectorRegistry, logger: Logger, clock: PipelineClock,
        protection: @escaping @Sendable (RetryBudget?, CircuitBreaker?, AdaptiveThrottle?) -> UpstreamProtection
    ) {
        self.configuration = configuration
        self.httpClient = httpClient
        self.exchange = exchange
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets[ClassificationObserver.timerLabel()] = ClassificationObserver.durationBuckets
        upstreamURL = URL(string: configuration.upstream) ?? URL(fileURLWithPath: "/")
        let upstream = SwiftErr.Upstream(url: upstreamURL)
        self.upstream = upstream
        // With classification off the gateway passes everything through unread, the load test's
        // baseline: no outcome is judged, so nothing is retried, protected or counted.
        var pipeline = RequestPipeline(
            policy: configuration.classification ? configuration.retryPolicy : .never,
            timeouts: .init(overall: configuration.upstreamTimeout), clock: clock)
        if configuration.classification,
            configuration.retryBudget != nil || configuration.circuitBreaker != nil || configuration.throttle != nil
        {
            let (budget, breaker, throttle) =
                (configuration.retryBudget, configuration.circuitBreaker, configuration.throttle)
            // Every request goes to the one configured upstream: keyed to it, with nothing to parse per
            // request. 64 upstreams, the registry's default capacity: in range, so this does not throw.
            let protections = try! UpstreamProtections(keying: .custom { _ in upstream }) { _ in
                protection(budget, breaker, throttle)
            }
            let metricsFactory = factory
            // The configured upstream's series are on `/metrics` from the start, its circuit closed.
            let series = UpstreamProtectionSeries(configured: upstream) { label in
                UpstreamProtectionMetrics(upstream: label, factory: metricsFactory)
            }
            pipeline.protections = protections
            pipeline.protectionObserver = { event in series.record(event) }
            self.protections = protections
        } else {
            protections = nil
        }
        self.pipeline = pipeline
        self.catalog = GatewayCatalog(
            catalog: catalog, file: configuration.catalogFile, classification: configuration.classification,
            unauthorizedCodes: configuration.unauthorizedCodes, registry: registry, factory: factory, logger: logger)
        if configuration.classification {
            // Made once, here: recording is then a dictionary lookup and an atomic add.
            var counters: [UnclassifiedReason: Prometheus.Counter] = [:]
            for reason in UnclassifiedReason.allCases {
                counters[reason] = registry.makeCounter(
                    descriptor: Self.unclassifiedMetric, labels: [("reason", reason.rawValue)])
            }
            unclassified = counters
        } else {
            unclassified = nil
        }
    }

    /// The router: `/api/**` for every method, `/metrics` and `/health`.
    /// - Returns: The router.
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        let methods: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete, .options]
        for method in methods {
            router.on("/api/**", method: method) { request, _ in try await proxy(request) }
        }
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
        router.get("/health") { _, _ in "ok" }
        return router
    }

    /// The Hummingbird application on ``GatewayConfiguration/host`` and ``GatewayConfiguration/port``.
    /// - Parameters:
    ///   - logger: The server's logger.
    ///   - onServerRunning: Called with the listening channel (to read the port when it was `0`).
    /// - Returns: The application, ready to run.
    public func application(
        logger: Logger = Logger(label: "gateway"),
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            router: router(),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            onServerRunning: onServerRunning, logger: logger)
    }

    /// Sends a request to the upstream and answers with its response, classified when
    /// classification is on.
    ///
    /// The request runs through the gateway's ``pipeline``: each attempt is first admitted by the
    /// upstream's protection (refused, the client gets 503 with `Retry-After` at once and the
    /// upstream sees nothing), then sent through ``exchange``; the whole request, every attempt and
    /// wait included, has ``GatewayConfiguration/upstreamTimeout`` for the whole answer, body
    /// included. Each answer is read by ``verdict(_:with:)`` and its outcome
    /// (``SwiftErr/UpstreamOutcome``: the status and, for 2xx, the envelope's code) goes to the
    /// protection; a failure of a request safe to repeat is sent again by
    /// ``GatewayConfiguration/retryPolicy`` when time and the protection allow, and otherwise passed
    /// on.
    /// - Parameter request: The request to `/api/...`.
    /// - Returns: The upstream's answer, a 401 for an unauthorized code, or a gateway error.
    /// - Throws: The error reading the request body when it is not too large, or `CancellationError`
    ///   when the request's task is cancelled (the client went away); the server closes the
    ///   connection.
    public func proxy(_ request: Request) async throws -> Response {
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: configuration.maxBodyBytes)
        } catch is NIOTooManyBytesError {
            return Self.problem(.contentTooLarge, "request body over \(configuration.maxBodyBytes) bytes")
        }
        var headers = HTTPHeaders()
        for field in request.headers where !Self.connectionFields.contains(field.name.canonicalName) {
            headers.add(name: field.name.rawName, value: field.value)
        }
        let outgoing = UpstreamRequest(
            method: request.method.rawValue, url: configuration.upstream + request.uri.description, headers: headers,
            body: body.readableBytes > 0 ? body : nil)
        // What the pipeline reads of the request: the repeatability rule reads the method and an
        // `Idempotency-Key` (the protections are keyed to the configured upstream, whatever the path).
        let described = TransportRequest(
            url: upstreamURL, method: outgoing.method,
            headerFields: request.headers[Self.idempotencyKey].map { [Self.idempotencyKey.canonicalName: $0] } ?? [:])
        // One catalog for the whole request, every attempt included, whatever reloads meanwhile.
        let generation = catalog.current
        let send = exchange.send
        let end = await pipeline.run(
            described, failures: failures(),
            // The gateway has no session: the request the pipeline hands back is the one it was given.
            exchange: { _ in try await send(outgoing) },
            judge: { response in verdict(response, with: generation) })
        switch end.result {
        case .success(let attempt):
            return respond(attempt, to: request, with: generation)
        case .failure(let failure):
            switch failure.reply {
            case .upstream(let attempt): return respond(attempt, to: request, with: generation)
            case .refused(let refusal): return Self.refused(refusal)
            case .cancelled: throw CancellationError()
            }
        }
    }

    /// The gateway's answer to an attempt: the upstream's response (401 for an unauthorized code,
    /// with the message of the request's catalog generation), or 502.
    func respond(_ attempt: Attempt, to request: Request, with generation: GatewayCatalog.Generation) -> Response {
        switch attempt.answer {
        case .noAnswer(let error):
            return Self.problem(.badGateway, "upstream failed: \(Self.describe(error))")
        case .tooLarge(let tooLarge):
            return Self.problem(.badGateway, "upstream \(tooLarge.description)")
        case .response(let response):
            if let observation = attempt.observation, let bodies = generation.unauthorizedBodies[observation.code] {
                let language = Self.language(of: request)
                return Response(
                    status: .unauthorized,
                    headers: [
                        .contentType: "application/json; charset=utf-8",
                        .wwwAuthenticate: #"Bearer error="invalid_token""#,
                    ],
                    body: ResponseBody(byteBuffer: bodies[language] ?? bodies[.english] ?? ByteBuffer()))
            }
            var headers = HTTPFields()
            for (name, value) in response.headers where !Self.connectionFields.contains(name.lowercased()) {
                if let fieldName = HTTPField.Name(name) { headers.append(HTTPField(name: fieldName, value: value)) }
            }
            return Response(
                status: .init(code: response.status), headers: headers, body: ResponseBody(byteBuffer: response.body))
        }
    }

    /// 503 for a request the upstream's protection refused, with `Retry-After` (whole seconds,
    /// rounded up) when the refusal says when trying again makes sense.
    static func refused(_ refusal: UpstreamRefusal) -> Response {
        var response = Response(
            status: .serviceUnavailable, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: refusalBodies[refusal.reason] ?? ByteBuffer()))
        if let after = refusal.retryAfter {
            let (seconds, attoseconds) = after.components
            response.headers[.retryAfter] = String(max(1, seconds + (attoseconds > 0 ? 1 : 0)))
        }
        return response
    }

    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!

    /// The bodies of 503 answers, `{"error":"upstream protected: <reason>"}`, made once: a shed
    /// answer is the one the gateway gives most often when its upstream is down.
    static let refusalBodies: [UpstreamRefusal.Reason: ByteBuffer] = Dictionary(
        uniqueKeysWithValues: UpstreamRefusal.Reason.allCases.map { reason in
            (reason, ByteBuffer(string: #"{"error":"upstream protected: \#(reason.rawValue)"}"#))
        })

    /// The language of the 401 body for the client's `Accept-Language` (``language(accepting:)``).
    static func language(of request: Request) -> Language {
        request.headers[.acceptLanguage].map(language(accepting:)) ?? .english
    }

    /// The language of `GatewayCatalog.bodyLanguages` an `Accept-Language` value asks for: its
    /// language ranges by `q` (highest first, then in order; `q=0` and `*` left out), the first
    /// that one of the body languages serves by the language rule (`Language.bestMatch(in:)`);
    /// English when none does. `zh-CN,zh;q=0.9` and `zh-Hans` give Simplified Chinese; `zh-TW`
    /// gives English, as Traditional Chinese never falls back to Simplified.
    /// - Parameter accepted: The header's value.
    /// - Returns: One of `GatewayCatalog.bodyLanguages`.
    public static func language(accepting accepted: String) -> Language {
        var ranges: [(language: Language, q: Double, order: Int)] = []
        for (order, item) in accepted.split(separator: ",").enumerated() {
            let fields = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = fields.first, let language = Language(tag: first) else { continue }
            var q = 1.0
            for field in fields.dropFirst() where field.hasPrefix("q=") {
                q = Double(field.dropFirst(2)) ?? 0
            }
            if q > 0 { ranges.append((language, q, order)) }
        }
        ranges.sort { $0.q != $1.q ? $0.q > $1.q : $0.order < $1.order }
        for range in ranges {
            if let chosen = range.language.bestMatch(in: GatewayCatalog.bodyLanguages) { return chosen }
        }
        return .english
    }

    /// A gateway error: the status and `{"error": message}`.
    static func problem(_ status: HTTPResponse.Status, _ message: String) -> Response {
        let data = (try? JSONEncoder().encode(["error": message])) ?? Data()
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// An exchange's error as a 502 says it: the transport's own error, which the exchange maps for
    /// the retry policy and keeps under `NSUnderlyingErrorKey`, names the failure best.
    static func describe(_ error: any Error) -> String {
        if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] { return "\(underlying)" }
        return "\(error)"
    }
}
