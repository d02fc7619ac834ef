import Logging
import Metrics
import SwiftErr
import Tracing

/// Records what SwiftErr classified: swift-metrics counters per tier and per module with a
/// classification timer, swift-log metadata on failures, and swift-distributed-tracing span
/// attributes.
///
/// <!-- listing: context=server,observability -->
/// ```swift
/// let observer = ClassificationObserver(logger: Logger(label: "gateway"))
/// let observation = try observer.observe(body: responseBytes)
/// if observation.classification.tier == .base { logger.notice("base code \(observation.code)") }
/// ```
///
/// ## Metrics
/// With the default prefix `swifterr`:
/// - `swifterr_responses_total{tier}`: every classified code, by tier;
/// - `swifterr_codes_total{tier, module, name}`: every classified code, by ``CodeLabels``;
/// - `swifterr_invalid_envelopes_total`: bodies that were not an envelope (``observe(body:span:)``);
/// - `swifterr_classification_duration_seconds` (a `Timer`): the time to read the envelope and
///   classify its code (``observe(body:span:)``), or to classify a code (``observe(code:message:span:)``).
///
/// Label values come from the catalog or are fixed words (``CodeLabels``): a code outside the
/// catalog is counted under `tier="unknown", module="unknown", name="unknown"` and never becomes a
/// label value, so the series are bounded by the catalog. Every counter is made once, when the
/// observer is created: recording is an array lookup and the backend's increment, with no lock and
/// no allocation in SwiftErr's part.
///
/// ## Logs
/// Each code that is not the success code is logged at ``Configuration/failureLogLevel`` (`.info`
/// by default, `nil` for none) with the metadata `swifterr.code` (the server's number, which may be
/// outside the catalog: logs are not labels), `swifterr.tier`, `swifterr.module` and
/// `swifterr.name`. The logger's level is checked first, so a disabled level costs no metadata.
///
/// ## Traces
/// When a span is given, the same four values are set as its attributes (``annotate(_:with:)``).
/// The span's status is left to the caller: a business answer such as a wrong team code is not
/// necessarily a failure of the operation the span measures.
public struct ClassificationObserver: Sendable {
    /// How an observer names its metrics and reads and logs responses.
    public struct Configuration: Sendable {
        /// The prefix of every metric name (`swifterr`).
        public var metricPrefix: String
        /// The level at which codes that are not the success code are logged, or `nil` for none.
        public var failureLogLevel: Logger.Level?
        /// The envelope's member names (``SwiftErr/EnvelopeKeys/default``).
        public var keys: EnvelopeKeys

        /// Creates a configuration.
        /// - Parameters:
        ///   - metricPrefix: The prefix of every metric name.
        ///   - failureLogLevel: The level for codes that are not the success code, or `nil`.
        ///   - keys: The envelope's member names.
        public init(
            metricPrefix: String = "swifterr", failureLogLevel: Logger.Level? = .info, keys: EnvelopeKeys = .default
        ) {
            self.metricPrefix = metricPrefix
            self.failureLogLevel = failureLogLevel
            self.keys = keys
        }
    }

    /// What one observation found.
    public struct Observation: Sendable, Hashable {
        /// The code the server sent.
        public let code: Int64
        /// The envelope's message, if it has one.
        public let message: String?
        /// The catalog's classification of the code.
        public let classification: Classification
        /// Its label values.
        public let labels: CodeLabels
        /// The envelope, when the observation read a body.
        public let envelope: ResponseEnvelope?
    }

    /// The catalog codes are classified through.
    public let catalog: Catalog
    /// Names, log level and envelope keys.
    public let configuration: Configuration
    /// The logger failures are logged to, or `nil`.
    public let logger: Logger?

    /// The `Timer` buckets that suit the classification timer in histogram backends (1 µs to
    /// 1 ms), such as swift-prometheus's `PrometheusMetricsFactory.durationHistogramBuckets`.
    public static let durationBuckets: [Duration] = [
        .nanoseconds(500), .microseconds(1), .microseconds(2), .microseconds(5), .microseconds(10),
        .microseconds(25), .microseconds(50), .microseconds(100), .microseconds(250), .milliseconds(1),
    ]

    /// The name of the classification timer for a prefix (`swifterr_classification_duration_seconds`),
    /// to configure its buckets in a histogram backend.
    /// - Parameter prefix: The metric prefix.
    /// - Returns: The timer's label.
    public static func timerLabel(prefix: String = "swifterr") -> String {
        "\(prefix)_classification_duration_seconds"
    }

    private let tierCounters: [Counter]
    private let entryCounters: [Counter]
    private let entryLabels: [CodeLabels]
    private let unrecognisedCounters: [Counter]
    private let unrecognisedLabels: [CodeLabels]
    private let unknownCounter: Counter
    private let unknownLabels: CodeLabels
    private let invalidEnvelopes: Counter
    private let timer: Metrics.Timer

    /// Creates an observer and all of its counters.
    /// - Parameters:
    ///   - catalog: The catalog codes are classified through: SwiftErr's process-wide catalog
    ///     (``SwiftErrCore/Catalog/current``, the app's installed catalog) by default; for modules with
    ///     a catalog of their own, that catalog (`HomeworkCode.catalog`).
    ///   - factory: The metrics backend (the one bootstrapped in `MetricsSystem` by default).
    ///   - logger: The logger for failures, or `nil` for none.
    ///   - configuration: Names, log level and envelope keys.
    public init(
        catalog: Catalog = .current, factory: any MetricsFactory = MetricsSystem.factory, logger: Logger? = nil,
        configuration: Configuration = Configuration()
    ) {
        self.catalog = catalog
        self.configuration = configuration
        self.logger = logger
        let prefix = configuration.metricPrefix
        let responses = "\(prefix)_responses_total"
        let codes = "\(prefix)_codes_total"
        // Indexed by the tier's raw value (unknown 0, success 1, base 2, module 3).
        tierCounters = Classification.Tier.allCases.sorted { $0.rawValue < $1.rawValue }.map {
            Counter(label: responses, dimensions: [("tier", $0.name)], factory: factory)
        }
        var entryLabels: [CodeLabels] = []
        for index in 0..<UInt32(catalog.entryCount) {
            let code = catalog.code(at: index) ?? 0
            entryLabels.append(CodeLabels(catalog.classify(code), in: catalog))
        }
        self.entryLabels = entryLabels
        entryCounters = entryLabels.map { Counter(label: codes, dimensions: $0.dimensions, factory: factory) }
        unrecognisedLabels = (0..<catalog.moduleCount).map { index in
            let module = catalog.moduleName(UInt16(index + 1)) ?? CodeLabels.unknownName
            return CodeLabels(tier: Classification.Tier.module.name, module: module, name: CodeLabels.unrecognisedName)
        }
        unrecognisedCounters = unrecognisedLabels.map {
            Counter(label: codes, dimensions: $0.dimensions, factory: factory)
        }
        unknownLabels = CodeLabels(Classification.unknown, in: catalog)
        unknownCounter = Counter(label: codes, dimensions: unknownLabels.dimensions, factory: factory)
        invalidEnvelopes = Counter(label: "\(prefix)_invalid_envelopes_total", factory: factory)
        timer = Metrics.Timer(label: Self.timerLabel(prefix: prefix), factory: factory)
    }

    /// Reads a response body's envelope, classifies its code and records it: counted, timed, logged
    /// when it is not the success code, and set on `span`.
    ///
    /// A body that is not an envelope is counted in `swifterr_invalid_envelopes_total` and thrown;
    /// it is not a classification.
    /// - Parameters:
    ///   - body: The response body.
    ///   - span: The span to annotate, or `nil`.
    /// - Returns: What was found.
    /// - Throws: The ``SwiftErr/EnvelopeError`` of a body that is not an envelope.
    public func observe(body: some Collection<UInt8>, span: (any Span)? = nil) throws(EnvelopeError) -> Observation {
        let start = ContinuousClock.now
        let envelope: ResponseEnvelope
        do {
            envelope = try ResponseEnvelope.parse(body, keys: configuration.keys)
        } catch {
            invalidEnvelopes.increment()
            throw error
        }
        let classification = catalog.classify(envelope.code)
        timer.recordNanoseconds(Self.nanoseconds(ContinuousClock.now - start))
        return record(envelope.code, message: envelope.message, classification, envelope: envelope, span: span)
    }

    /// Classifies a code and records it: counted, timed, logged when it is not the success code,
    /// and set on `span`.
    /// - Parameters:
    ///   - code: The code the server sent.
    ///   - message: The server's message, for the log.
    ///   - span: The span to annotate, or `nil`.
    /// - Returns: What was found.
    @discardableResult
    public func observe(code: Int64, message: String? = nil, span: (any Span)? = nil) -> Observation {
        let start = ContinuousClock.now
        let classification = catalog.classify(code)
        timer.recordNanoseconds(Self.nanoseconds(ContinuousClock.now - start))
        return record(code, message: message, classification, envelope: nil, span: span)
    }

    /// The labels a classification made through ``catalog`` is counted under.
    /// - Parameter classification: The classification.
    /// - Returns: Its labels (from the tables made at creation, no catalog lookups).
    public func labels(for classification: Classification) -> CodeLabels {
        if let index = classification.entryIndex, Int(index) < entryLabels.count {
            return entryLabels[Int(index)]
        }
        if classification.tier == .module, classification.moduleID >= 1,
            Int(classification.moduleID) <= unrecognisedLabels.count
        {
            return unrecognisedLabels[Int(classification.moduleID) - 1]
        }
        return unknownLabels
    }

    /// Sets an observation's `swifterr.code`, `swifterr.tier`, `swifterr.module` and `swifterr.name`
    /// attributes on a span.
    /// - Parameters:
    ///   - span: The span.
    ///   - observation: What was found.
    public func annotate(_ span: any Span, with observation: Observation) {
        span.attributes["swifterr.code"] = observation.code
        span.attributes["swifterr.tier"] = observation.labels.tier
        span.attributes["swifterr.module"] = observation.labels.module
        span.attributes["swifterr.name"] = observation.labels.name
    }

    /// Counts, logs and annotates one classification.
    private func record(
        _ code: Int64, message: String?, _ classification: Classification, envelope: ResponseEnvelope?,
        span: (any Span)?
    ) -> Observation {
        let tier = classification.tier
        tierCounters[Int(tier.rawValue)].increment()
        let labels: CodeLabels
        if let index = classification.entryIndex, Int(index) < entryCounters.count {
            entryCounters[Int(index)].increment()
            labels = entryLabels[Int(index)]
        } else if tier == .module, classification.moduleID >= 1,
            Int(classification.moduleID) <= unrecognisedCounters.count
        {
            unrecognisedCounters[Int(classification.moduleID) - 1].increment()
            labels = unrecognisedLabels[Int(classification.moduleID) - 1]
        } else {
            unknownCounter.increment()
            labels = unknownLabels
        }
        let observation = Observation(
            code: code, message: message, classification: classification, labels: labels, envelope: envelope)
        if tier != .success, let level = configuration.failureLogLevel, let logger {
            logger.log(
                level: level, "response code \(code) is \(labels.tier) \(labels.module).\(labels.name)",
                metadata: [
                    "swifterr.code": "\(code)", "swifterr.tier": "\(labels.tier)",
                    "swifterr.module": "\(labels.module)", "swifterr.name": "\(labels.name)",
                ])
        }
        if let span { annotate(span, with: observation) }
        return observation
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
    }
}
