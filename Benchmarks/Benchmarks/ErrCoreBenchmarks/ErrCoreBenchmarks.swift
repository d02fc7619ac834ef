// ErrCoreBenchmarks — the package-benchmark suite: C single and batch classify, C tally, the Swift
// facade, envelope to Result against JSONDecoder on the default catalog and the 256- and
// 4,096-code tables. Every classify benchmark reads the same fixed-seed stream as `compare`; one
// measured sample is 1,000 codes (or one response body). errcat's own stream path is measured as a
// process: Benchmarks/tools/stream-compare.sh (speed) and scripts/bench/errcat-allocations.sh
// (allocations per line).
//
//   cd Benchmarks && swift package benchmark
//   swift package benchmark thresholds check --metric mallocCountTotal

import Baselines
import Benchmark
import CBaselines
import CErrCore
import Foundation
import SwiftErr
import SwiftErrDefaultCatalog

/// Codes per measured sample in the classify benchmarks.
let chunk = 1_000
/// Codes in each benchmark input stream (the chunks rotate through it).
let streamLength = 1 << 20

/// A table, its input, its facade table and output buffers, made once per size.
///
/// `@unchecked Sendable`: package-benchmark runs one benchmark at a time on one thread; the
/// buffers and `offset` are touched only by the benchmark closure that is running.
final class Fixture: @unchecked Sendable {
    let workload: Workload
    let codeTable: Catalog
    let out: UnsafeMutablePointer<errcore_class>
    var offset = 0

    init(_ size: TableSize) {
        do {
            workload = try Workload(size: size, count: streamLength)
            codeTable = try FacadeApproach.codeTable(for: size)
        } catch {
            fatalError("benchmark fixture for \(size.rawValue): \(error)")
        }
        out = .allocate(capacity: chunk)
        out.initialize(repeating: 0, count: chunk)
    }

    /// The next `chunk` codes of the stream.
    func nextCodes() -> UnsafeBufferPointer<Int64> {
        if offset + chunk > workload.codes.count { offset = 0 }
        defer { offset += chunk }
        return UnsafeBufferPointer(rebasing: workload.codes[offset..<offset + chunk])
    }
}

/// Classify benchmarks: one sample = `chunk` codes (scaling factor 1,000 gives per-code figures with --scale).
func classifyConfiguration() -> Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .nanoseconds,
        scalingFactor: .kilo,
        maxDuration: .seconds(1),
        maxIterations: 2_000
    )
}

/// Envelope benchmarks: one sample = one response body.
func envelopeConfiguration() -> Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .nanoseconds,
        maxDuration: .seconds(1),
        maxIterations: 20_000
    )
}

// nonisolated(unsafe): package-benchmark runs the benchmarks one after another on one thread.
nonisolated(unsafe) var fixtures: [TableSize: Fixture] = [:]

func fixture(_ size: TableSize) -> Fixture {
    if let f = fixtures[size] { return f }
    let f = Fixture(size)
    fixtures[size] = f
    return f
}

let benchmarks: @Sendable () -> Void = {
    for size in TableSize.allCases {
        let name = size.rawValue

        Benchmark("CClassifySingle_\(name)", configuration: classifyConfiguration()) { benchmark in
            let f = fixture(size)
            let codes = f.nextCodes()
            benchmark.startMeasurement()
            cbl_single_classify(f.workload.table, codes.baseAddress, f.out, codes.count)
            benchmark.stopMeasurement()
            blackHole(f.out[chunk - 1])
        }

        Benchmark("CClassifyBatch_\(name)", configuration: classifyConfiguration()) { benchmark in
            let f = fixture(size)
            let codes = f.nextCodes()
            benchmark.startMeasurement()
            errcore_classify_batch(f.workload.table, codes.baseAddress, f.out, codes.count)
            benchmark.stopMeasurement()
            blackHole(f.out[chunk - 1])
        }

        Benchmark("CTally_\(name)", configuration: classifyConfiguration()) { benchmark in
            let f = fixture(size)
            let codes = f.nextCodes()
            var tally = errcore_tally()
            benchmark.startMeasurement()
            let status = errcore_tally_codes(f.workload.table, codes.baseAddress, codes.count, &tally, nil)
            benchmark.stopMeasurement()
            precondition(status == ERRCORE_OK && tally.total == UInt64(chunk), "errcore_tally_codes failed: \(status)")
            blackHole(tally.tiers.3)
        }

        Benchmark("SwiftFacadeClassify_\(name)", configuration: classifyConfiguration()) { benchmark in
            let f = fixture(size)
            let codes = f.nextCodes()
            let table = f.codeTable
            benchmark.startMeasurement()
            var sum: UInt64 = 0
            for code in codes {
                sum &+= table.classify(code).rawValue
            }
            benchmark.stopMeasurement()
            blackHole(sum)
        }
    }

    // Envelope to Result: the facade (scan once, classify in C, JSONDecoder only for a success
    // payload) against JSONDecoder decoding the whole envelope into a Decodable struct. The
    // baseline reuses one JSONDecoder (as `compare` does), which favours it.
    let decoder = ResponseDecoder()
    let json = JSONDecoder()
    let samples: [(String, Data)] = [
        ("small_success", EnvelopeSamples.smallSuccess),
        ("small_failure", EnvelopeSamples.smallFailure),
        ("64KB_success", EnvelopeSamples.largeSuccess),
        ("64KB_failure", EnvelopeSamples.largeFailure),
    ]
    for (label, body) in samples {
        let large = label.hasPrefix("64KB")
        Benchmark("EnvelopeToResult_\(label)", configuration: envelopeConfiguration()) { benchmark in
            if large {
                blackHole(decoder.result(ClassPage.self, module: StudyGroupCode.self, from: body))
            } else {
                blackHole(decoder.result(ClassInfo.self, module: StudyGroupCode.self, from: body))
            }
        }
        Benchmark("JSONDecoderEnvelope_\(label)", configuration: envelopeConfiguration()) { benchmark in
            if large {
                blackHole(EnvelopeSamples.decodableResult(ClassPage.self, from: body, decoder: json))
            } else {
                blackHole(EnvelopeSamples.decodableResult(ClassInfo.self, from: body, decoder: json))
            }
        }
    }
}
