import Foundation
import Logging
import NIOCore
import Prometheus
import SwiftErr
import SwiftErrCatalogFile
import SwiftErrObservability
import Synchronization

/// The catalog the gateway classifies with, reloaded from its file without a restart (on
/// `SIGHUP` and on `POST /admin/reload-catalog`), and what the gateway derives from it: the
/// ``SwiftErrObservability/ClassificationObserver`` and the 401 bodies of the unauthorized codes.
///
/// A request takes one ``Generation`` when it starts and classifies every attempt with it, so a
/// request in flight finishes on the catalog it started with. A reload reads, checks and builds
/// the whole file before anything changes; a file that cannot be read, or is not a catalog, is
/// logged with each problem located (`PATH:LINE:COLUMN: MESSAGE`), counted, and the catalog in use
/// stays.
///
/// `/metrics` shows the catalog in use and the reloads, when the gateway classifies (passing
/// everything through, it uses no catalog and has no `swifterr_` series):
/// - `swifterr_catalog_info{name, identity}`: 1 for the catalog in use (its name and
///   ``SwiftErrCore/Catalog/identity``), the only series of that name;
/// - `swifterr_catalog_generation`: 0 for the catalog the gateway started with, one more per reload;
/// - `swifterr_catalog_reloads_total{result}`: reloads by `result` (`success`, `failure`).
public final class GatewayCatalog: Sendable {
    /// One catalog generation and what the gateway made from it (a class: a request takes it with
    /// one retain, not one per field).
    public final class Generation: Sendable {
        /// The catalog, its identity and generation number.
        public let snapshot: ReloadableCatalog.Snapshot
        /// Classifies and counts upstream answers with ``snapshot``'s catalog, or `nil` when
        /// classification is off.
        public let observer: ClassificationObserver?
        /// The 401 bodies, by code and language, with the catalog's messages.
        let unauthorizedBodies: [Int64: [Language: ByteBuffer]]

        init(
            snapshot: ReloadableCatalog.Snapshot, observer: ClassificationObserver?,
            unauthorizedBodies: [Int64: [Language: ByteBuffer]]
        ) {
            self.snapshot = snapshot
            self.observer = observer
            self.unauthorizedBodies = unauthorizedBodies
        }
    }

    /// What made a reload start, for the log.
    public enum Trigger: String, Sendable {
        /// The process received `SIGHUP`.
        case hangup = "SIGHUP"
        /// `POST /admin/reload-catalog`.
        case admin = "admin endpoint"
    }

    /// A reload that changed nothing: why, and the catalog that stays in use.
    public struct ReloadFailure: Error, Sendable, CustomStringConvertible {
        /// Why: the located problems of the file (`PATH:LINE:COLUMN: MESSAGE`, one per line), or
        /// that the gateway has no catalog file to reload.
        public let reason: String
        /// Whether the gateway has a catalog file at all (`false`: it runs on the built-in catalog).
        public let hasFile: Bool
        /// The catalog still in use.
        public let kept: ReloadableCatalog.Snapshot

        /// The reason, then the catalog kept.
        public var description: String {
            "\(reason.replacingOccurrences(of: "\n", with: "; ")) (keeping catalog '\(kept.name)' \(kept.identity), generation \(kept.generation))"
        }
    }

    /// The catalog file reloads read, or `nil` when the gateway runs on a catalog given in code.
    public let file: String?
    private let catalog: ReloadableCatalog
    private let classification: Bool
    private let unauthorizedCodes: Set<Int64>
    private let factory: PrometheusMetricsFactory
    private let logger: Logger
    /// The catalog's series, or `nil` when classification is off.
    private let series: Series?

    /// The registry and the series that do not change with the catalog.
    private struct Series: Sendable {
        let registry: PrometheusCollectorRegistry
        /// Reloads, by whether they succeeded.
        let reloads: [Bool: Prometheus.Counter]
        let generation: Prometheus.Gauge
    }

    private struct State: Sendable {
        var current: Generation
        /// `swifterr_catalog_info` of ``current``, or `nil` without series.
        var info: Prometheus.Gauge?
    }
    private let state: Mutex<State>

    // The series as Prometheus names them (values made on each use: the descriptor type is not
    // `Sendable`, and they are read only at start-up and at a reload).
    static var infoMetric: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "swifterr", subsystem: "catalog", metricName: "info", unitName: "",
            helpText: "The catalog the gateway classifies with: its name and identity (FNV-1a 64 of its table).")
    }
    static var generationMetric: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "swifterr", subsystem: "catalog", metricName: "generation", unitName: "",
            helpText: "The generation of the catalog in use: 0 at start, one more per successful reload.")
    }
    static var reloadsMetric: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "swifterr", subsystem: "catalog", metricName: "reloads", unitName: "total",
            helpText: "Catalog reloads, by result; a failed one keeps the catalog in use.")
    }

    /// The name of the series that shows the catalog in use: `swifterr_catalog_info`.
    public static var infoMetricName: String { infoMetric.name }
    /// The name of the gauge of the catalog's generation: `swifterr_catalog_generation`.
    public static var generationMetricName: String { generationMetric.name }
    /// The name of the counter of reloads, by `result`: `swifterr_catalog_reloads_total`.
    public static var reloadsMetricName: String { reloadsMetric.name }

    /// Starts with `catalog`'s snapshot as the catalog in use.
    /// - Parameters:
    ///   - catalog: The catalog, already loaded.
    ///   - file: The file reloads read, or `nil` for none.
    ///   - classification: Whether the gateway classifies (an observer is made per generation).
    ///   - unauthorizedCodes: The codes answered 401 with the catalog's message.
    ///   - registry: Where the catalog's series go (when `classification` is on).
    ///   - factory: The metrics factory the observers count through.
    ///   - logger: Where reloads are logged.
    init(
        catalog: ReloadableCatalog, file: String?, classification: Bool, unauthorizedCodes: Set<Int64>,
        registry: PrometheusCollectorRegistry, factory: PrometheusMetricsFactory, logger: Logger
    ) {
        self.catalog = catalog
        self.file = file
        self.classification = classification
        self.unauthorizedCodes = unauthorizedCodes
        self.factory = factory
        self.logger = logger
        let snapshot = catalog.snapshot
        if classification {
            let series = Series(
                registry: registry,
                reloads: [
                    true: registry.makeCounter(descriptor: Self.reloadsMetric, labels: [("result", "success")]),
                    false: registry.makeCounter(descriptor: Self.reloadsMetric, labels: [("result", "failure")]),
                ],
                generation: registry.makeGauge(descriptor: Self.generationMetric))
            series.generation.set(Double(snapshot.generation))
            self.series = series
        } else {
            series = nil
        }
        let first = Self.generation(
            snapshot, classification: classification, unauthorizedCodes: unauthorizedCodes, factory: factory,
            logger: logger)
        state = Mutex(State(current: first, info: series.map { Self.info(snapshot, in: $0.registry) }))
    }

    /// The generation in use now: take it once per request.
    public var current: Generation {
        state.withLock { $0.current }
    }

    /// Reads the catalog file again and, when it is a catalog, classifies with it from now on;
    /// otherwise logs why, counts the failure and keeps the catalog in use.
    /// - Parameter trigger: What asked for the reload, for the log.
    /// - Returns: The new generation's snapshot.
    /// - Throws: ``ReloadFailure`` when the file cannot be read or is not a catalog, or there is none.
    @discardableResult
    public func reload(trigger: Trigger) throws(ReloadFailure) -> ReloadableCatalog.Snapshot {
        guard let file else {
            let failure = ReloadFailure(
                reason: "the gateway runs on the built-in catalog (no --catalog file to reload)", hasFile: false,
                kept: current.snapshot)
            series?.reloads[false]?.increment()
            logger.error("catalog reload (\(trigger.rawValue)) failed: \(failure)")
            throw failure
        }
        let snapshot: ReloadableCatalog.Snapshot
        do {
            snapshot = try catalog.reload(contentsOfFile: file)
        } catch {
            let failure = ReloadFailure(reason: error.description, hasFile: true, kept: current.snapshot)
            series?.reloads[false]?.increment()
            logger.error("catalog reload (\(trigger.rawValue)) failed: \(failure)")
            throw failure
        }
        // Made before the swap, outside the lock: the observer's counters and the 401 bodies.
        let next = Self.generation(
            snapshot, classification: classification, unauthorizedCodes: unauthorizedCodes, factory: factory,
            logger: logger)
        let series = self.series
        state.withLock { state in
            // Two reloads at once: the later generation wins, whichever finishes first.
            guard snapshot.generation > state.current.snapshot.generation else { return }
            let old = state.current.snapshot
            state.current = next
            if let series, old.name != snapshot.name || old.identity != snapshot.identity {
                if let info = state.info { series.registry.unregisterGauge(info) }
                state.info = Self.info(snapshot, in: series.registry)
            }
            series?.generation.set(Double(snapshot.generation))
        }
        series?.reloads[true]?.increment()
        logger.notice(
            "catalog reloaded (\(trigger.rawValue)): '\(snapshot.name)' \(snapshot.identity), generation \(snapshot.generation), from \(file)"
        )
        return snapshot
    }

    /// `swifterr_catalog_info{name, identity} 1` for a catalog.
    private static func info(_ snapshot: ReloadableCatalog.Snapshot, in registry: PrometheusCollectorRegistry)
        -> Prometheus.Gauge
    {
        let gauge = registry.makeGauge(
            descriptor: infoMetric, labels: [("name", snapshot.name), ("identity", snapshot.identity)])
        gauge.set(Double(1))
        return gauge
    }

    /// What the gateway needs to classify with one catalog.
    private static func generation(
        _ snapshot: ReloadableCatalog.Snapshot, classification: Bool, unauthorizedCodes: Set<Int64>,
        factory: PrometheusMetricsFactory, logger: Logger
    ) -> Generation {
        let observer =
            classification
            ? ClassificationObserver(
                catalog: snapshot.catalog, factory: factory, logger: logger,
                configuration: .init(failureLogLevel: .debug))
            : nil
        var bodies: [Int64: [Language: ByteBuffer]] = [:]
        for code in unauthorizedCodes {
            for language in bodyLanguages {
                bodies[code, default: [:]][language] = envelope(code: code, language: language, in: snapshot.catalog)
            }
        }
        return Generation(snapshot: snapshot, observer: observer, unauthorizedBodies: bodies)
    }

    /// The languages of the 401 bodies, English (the default) first.
    static let bodyLanguages: [Language] = [.english, .simplifiedChinese]

    /// `{"ret":<code>,"msg":"<the catalog's message>"}`.
    static func envelope(code: Int64, language: Language, in catalog: Catalog) -> ByteBuffer {
        let message =
            catalog.classify(code).entryIndex.flatMap { catalog.entryMessage(at: $0, in: language) }
            ?? catalog.describe(code, in: language)
        // The message as a JSON string (quoted and escaped); `ret` first, as envelopes are written.
        let quoted = (try? JSONEncoder().encode(message)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
        return ByteBuffer(string: "{\"ret\":\(code),\"msg\":\(quoted)}")
    }
}
