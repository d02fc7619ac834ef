import InMemoryLogging
import InMemoryTracing
import Logging
import MetricsTestKit
import SwiftErr
import SwiftErrDefaultCatalog
import SwiftErrObservability
import Testing
import Tracing

/// The observer against the libraries' own test backends: swift-metrics' `TestMetrics`,
/// swift-log's `InMemoryLogHandler` and swift-distributed-tracing's `InMemoryTracer`.
@Suite("ClassificationObserver: metrics, logs and span attributes with bounded labels")
struct ClassificationObserverTests {
    static let responses = "swifterr_responses_total"
    static let codes = "swifterr_codes_total"

    /// An observer over a fresh metrics backend and an in-memory logger.
    struct Setup {
        let metrics = TestMetrics()
        let logs = InMemoryLogHandler()
        let observer: ClassificationObserver

        init(failureLogLevel: Logger.Level? = .info, loggerLevel: Logger.Level = .trace) {
            var logger = Logger(label: "test") { [logs] _ in logs }
            logger.logLevel = loggerLevel
            observer = ClassificationObserver(
                catalog: .builtIn, factory: metrics, logger: logger,
                configuration: .init(failureLogLevel: failureLogLevel))
        }

        func total(_ dimensions: [(String, String)], label: String = ClassificationObserverTests.codes) -> Int64 {
            metrics.counterTotal(label: label, dimensions: dimensions)
        }

        func observe(_ body: String) throws -> ClassificationObserver.Observation {
            try observer.observe(body: Array(body.utf8))
        }
    }

    @Test("every tier and module is counted under catalog names; unknown codes under the fixed word")
    func countsPerTierAndModule() throws {
        let setup = Setup()
        _ = try setup.observe(#"{"ret":0,"msg":"ok","data":{}}"#)
        _ = try setup.observe(#"{"ret":0,"msg":"ok"}"#)
        _ = try setup.observe(#"{"ret":11001,"msg":"token expire"}"#)
        _ = try setup.observe(#"{"ret":11210005,"msg":"班级码错误","data":null}"#)
        _ = try setup.observe(#"{"ret":11219999,"msg":"?"}"#)
        _ = try setup.observe(#"{"ret":11160003,"msg":"tag exists"}"#)
        _ = try setup.observe(#"{"ret":99999999,"msg":"?"}"#)
        _ = try setup.observe(#"{"ret":-7}"#)

        #expect(setup.total([("tier", "success")], label: Self.responses) == 2)
        #expect(setup.total([("tier", "base")], label: Self.responses) == 1)
        #expect(setup.total([("tier", "module")], label: Self.responses) == 3)
        #expect(setup.total([("tier", "unknown")], label: Self.responses) == 2)

        #expect(setup.total([("tier", "base"), ("module", "base"), ("name", "tokenExpire")]) == 1)
        #expect(setup.total([("tier", "module"), ("module", "studyGroup"), ("name", "wrongTeamCode")]) == 1)
        #expect(setup.total([("tier", "module"), ("module", "studyGroup"), ("name", "unrecognised")]) == 1)
        #expect(setup.total([("tier", "module"), ("module", "tag"), ("name", "alreadyExistsTagName")]) == 1)
        #expect(setup.total([("tier", "unknown"), ("module", "unknown"), ("name", "unknown")]) == 2)
        #expect(setup.metrics.counterTotal(label: Self.codes) == 8)
    }

    @Test("10,000 distinct codes outside the catalog add no series and no label value from a code")
    func boundedCardinality() throws {
        let setup = Setup(failureLogLevel: nil)
        let catalog = Catalog.builtIn
        let seriesBefore = setup.metrics.counters(label: Self.codes).count
        #expect(seriesBefore == catalog.entryCount + catalog.moduleCount + 1)
        for offset in 0..<5_000 {
            setup.observer.observe(code: 50_000_000 + Int64(offset))  // unknown
            setup.observer.observe(code: 11_215_000 + Int64(offset))  // unlisted, in studyGroup's range
        }
        let series = setup.metrics.counters(label: Self.codes)
        #expect(series.count == seriesBefore)
        var allowed = Set(["success", "base", "module", "unknown", "unrecognised"])
        for index in 0..<UInt32(catalog.entryCount) { allowed.insert(catalog.entryName(at: index) ?? "") }
        for id in 1...UInt16(catalog.moduleCount) { allowed.insert(catalog.moduleName(id) ?? "") }
        for counter in series + setup.metrics.counters(label: Self.responses) {
            for (_, value) in counter.dimensions {
                #expect(allowed.contains(value), "label value \(value) is not from the catalog")
            }
        }
        #expect(setup.total([("tier", "unknown"), ("module", "unknown"), ("name", "unknown")]) == 5_000)
        #expect(setup.total([("tier", "module"), ("module", "studyGroup"), ("name", "unrecognised")]) == 5_000)
    }

    @Test("the timer records one duration per observation, of a body or of a code")
    func timer() throws {
        let setup = Setup()
        _ = try setup.observe(#"{"ret":0}"#)
        setup.observer.observe(code: 11001)
        let timer = try setup.metrics.expectTimer(ClassificationObserver.timerLabel())
        #expect(timer.values.count == 2)
        #expect(timer.values.allSatisfy { $0 >= 0 && $0 < 1_000_000_000 })
    }

    @Test("a body that is not an envelope is counted as such, thrown, and is no classification")
    func invalidEnvelope() {
        let setup = Setup()
        #expect(throws: EnvelopeError.self) { _ = try setup.observe("<html>502 Bad Gateway</html>") }
        #expect(setup.metrics.counterTotal(label: "swifterr_invalid_envelopes_total") == 1)
        #expect(setup.metrics.counterTotal(label: Self.responses) == 0)
    }

    @Test("failures are logged with code, tier, module and name; success is not")
    func logs() throws {
        let setup = Setup()
        _ = try setup.observe(#"{"ret":0}"#)
        _ = try setup.observe(#"{"ret":11210005,"msg":"班级码错误"}"#)
        _ = try setup.observe(#"{"ret":424242}"#)
        let entries = setup.logs.entries
        #expect(entries.count == 2)
        #expect(entries.allSatisfy { $0.level == .info })
        #expect(entries.first?.metadata["swifterr.code"] == "11210005")
        #expect(entries.first?.metadata["swifterr.tier"] == "module")
        #expect(entries.first?.metadata["swifterr.module"] == "studyGroup")
        #expect(entries.first?.metadata["swifterr.name"] == "wrongTeamCode")
        // In a log the raw code of an unknown answer is kept: logs are not metric labels.
        #expect(entries.last?.metadata["swifterr.code"] == "424242")
        #expect(entries.last?.metadata["swifterr.name"] == "unknown")
    }

    @Test("no log when the level is off, or below the logger's level")
    func quietLogs() throws {
        let off = Setup(failureLogLevel: nil)
        _ = try off.observe(#"{"ret":11001}"#)
        #expect(off.logs.entries.isEmpty)
        let belowLevel = Setup(failureLogLevel: .debug, loggerLevel: .warning)
        _ = try belowLevel.observe(#"{"ret":11001}"#)
        #expect(belowLevel.logs.entries.isEmpty)
        #expect(belowLevel.metrics.counterTotal(label: Self.responses) == 1)
    }

    @Test("the span gets code, tier, module and name as attributes")
    func spanAttributes() throws {
        let setup = Setup(failureLogLevel: nil)
        let tracer = InMemoryTracer()
        let observation = try tracer.withSpan("GET /class") { span in
            try setup.observer.observe(body: Array(#"{"ret":11001,"msg":"token expire"}"#.utf8), span: span)
        }
        #expect(observation.labels == CodeLabels(tier: "base", module: "base", name: "tokenExpire"))
        let span = try #require(tracer.finishedSpans.first)
        #expect(span.attributes.get("swifterr.code") == .int64(11001))
        #expect(span.attributes.get("swifterr.tier") == .string("base"))
        #expect(span.attributes.get("swifterr.module") == .string("base"))
        #expect(span.attributes.get("swifterr.name") == .string("tokenExpire"))
        #expect(span.status == nil)
    }

    @Test("labels(for:) agrees with what is counted, for listed, unlisted and unknown codes")
    func labelsAgree() {
        let setup = Setup(failureLogLevel: nil)
        for code: Int64 in [0, 11001, 11010017, 11210005, 11219999, 11169999, 7, Int64.min, Int64.max] {
            let observation = setup.observer.observe(code: code)
            #expect(setup.observer.labels(for: Catalog.builtIn.classify(code)) == observation.labels)
            #expect(setup.total(observation.labels.dimensions) >= 1, "\(code)")
        }
    }
}
