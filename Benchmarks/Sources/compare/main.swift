// compare — the side-by-side table: ns per code for every approach on the default catalog and
// the 256- and 4,096-code tables, the same input array for every approach, median of several
// repetitions, the ratios of the C batch, C single and Swift facade paths to each baseline, and
// the targets (classification and envelopes), each met or missed.
//
//   swift run -c release compare [--json] [--count N] [--reps R] [--linear-count M] [--hits P]
//                                [--table T] [--skip KEY] [--no-check] [--no-envelopes] [--envelopes-only]
//                                [--envelope KEY] [--no-strings] [--strings-only] [--wall-clock]
//                                [--plant-slowdown failure-path|string-lookup]
//
// The string codes: errcore_classify_string() among 32, 1,000 and 10,000 keys, against Swift's
// Dictionary<String, UInt64>, a sorted-array binary search and the integer single call on the
// same entries (Benchmarks/tools/string-lookup.sh adds gperf, which needs Debian's gperf).
//
// Times are the thread's CPU time unless --wall-clock is given. Before timing, the outputs of
// every approach are checked against errcore_classify_batch on the first 1,000,000 codes.

import AllocationCounter
import Baselines
import CBaselines
import CErrCore
import Foundation
import SwiftErr
import SwiftErrDefaultCatalog

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - options

struct Options {
    var json = false
    var count = 10_000_000
    var reps = 5
    var linearCount = 1_000_000
    var hitPercent: UInt32 = 80
    var check = true
    var tables = TableSize.allCases
    var envelopes = true
    var classification = true
    var strings = true
    var wallClock = false
    var skip: Set<String> = []
    var plant: PlantedSlowdown? = nil
    /// The envelope rows measured (their keys), or all when empty.
    var envelopeKeys: Set<String> = []
}

/// A slowdown planted in what is measured, to show that a gate reading the ratios fails.
enum PlantedSlowdown: String {
    /// Every failure body is decoded twice by the facade inside the timed loop.
    case failurePath = "failure-path"
    /// Every string code is classified twice inside errcore_classify_string's timed loop.
    case stringLookup = "string-lookup"
}

func usage(_ status: Int32 = 2) -> Never {
    print(
        """
        usage: compare [--json] [--count N] [--reps R] [--linear-count M] [--hits P] [--table T]
                       [--skip KEY] [--no-check] [--no-envelopes] [--envelopes-only] [--envelope KEY]
                       [--no-strings] [--strings-only] [--wall-clock]
                       [--plant-slowdown failure-path|string-lookup]
          --count N         codes in each input stream (default 10000000)
          --reps R          repetitions; the table shows the median (default 5)
          --linear-count M  codes the linear scan reads at 4,096 codes (default 1000000)
          --hits P          percent of codes that are table entries (default 80)
          --json            print JSON instead of the text table
          --table T         measure only table T (default, 256 or 4096); repeatable
          --no-check        skip checking that all approaches agree (for callgrind runs)
          --no-envelopes    skip the envelope-to-Result comparison
          --envelopes-only  measure only the envelope-to-Result comparison (no code tables)
          --envelope KEY    measure only this envelope body (small_success, small_failure,
                            64KB_success, 64KB_failure); repeatable
          --no-strings      skip the string-code lookup
          --strings-only    measure only the string-code lookup
          --skip KEY        leave out one approach (its JSON key, e.g. swift_facade_batch); repeatable
          --wall-clock      time with CLOCK_MONOTONIC instead of the thread's CPU time
                            (CLOCK_THREAD_CPUTIME_ID, the default: it leaves out time spent
                            descheduled while other processes share the cores)
          --plant-slowdown failure-path
                            decode every failure body twice in the facade's timed loop (the
                            envelope rows small failure and 64KB failure): a planted 2x slowdown
                            for testing a gate; the JSON says "planted": "failure-path"
          --plant-slowdown string-lookup
                            classify every string code twice in errcore_classify_string's timed
                            loop: a planted 2x slowdown of the string lookup
        """)
    exit(status)
}

func parseOptions() -> Options {
    var options = Options()
    var args = CommandLine.arguments.dropFirst()
    var picked = false
    func number(_ flag: String) -> Int {
        guard let text = args.popFirst(), let value = Int(text), value > 0 else {
            FileHandleStderr.write("compare: \(flag) needs a positive integer\n")
            usage()
        }
        return value
    }
    while let arg = args.popFirst() {
        switch arg {
        case "--json": options.json = true
        case "--count": options.count = number(arg)
        case "--reps": options.reps = number(arg)
        case "--linear-count": options.linearCount = number(arg)
        case "--hits":
            let value = number(arg)
            guard value <= 100 else {
                FileHandleStderr.write("compare: --hits is a percentage\n")
                usage()
            }
            options.hitPercent = UInt32(value)
        case "--no-check": options.check = false
        case "--no-envelopes": options.envelopes = false
        case "--envelopes-only":
            options.classification = false
            options.strings = false
        case "--no-strings": options.strings = false
        case "--strings-only":
            options.classification = false
            options.envelopes = false
        case "--envelope":
            guard let key = args.popFirst() else {
                FileHandleStderr.write("compare: --envelope needs a body key (small_success, small_failure, ...)\n")
                usage()
            }
            options.envelopeKeys.insert(key)
        case "--plant-slowdown":
            guard let text = args.popFirst(), let plant = PlantedSlowdown(rawValue: text) else {
                FileHandleStderr.write("compare: --plant-slowdown needs failure-path or string-lookup\n")
                usage()
            }
            options.plant = plant
        case "--wall-clock": options.wallClock = true
        case "--skip":
            guard let key = args.popFirst() else {
                FileHandleStderr.write("compare: --skip needs an approach key\n")
                usage()
            }
            options.skip.insert(key)
        case "--table":
            guard let text = args.popFirst(), let size = TableSize(rawValue: text) else {
                FileHandleStderr.write("compare: --table needs default, 256 or 4096\n")
                usage()
            }
            if !picked {
                options.tables = []
                picked = true
            }
            if !options.tables.contains(size) { options.tables.append(size) }
        case "-h", "--help": usage(0)
        default:
            FileHandleStderr.write("compare: unknown argument '\(arg)'\n")
            usage()
        }
    }
    return options
}

enum FileHandleStderr {
    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        #if canImport(Glibc)
            _ = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress, $0.count) }
        #else
            _ = bytes.withUnsafeMutableBytes { Darwin.write(2, $0.baseAddress, $0.count) }
        #endif
    }
}

// MARK: - approaches

/// One way to classify the input, timed on one table.
struct Approach {
    let key: String
    let name: String
    /// Runs over `codes`, returning something that depends on every result.
    let run: (Context, UnsafeBufferPointer<Int64>) -> UInt64
}

/// Everything an approach needs for one table, made before timing starts.
final class Context {
    let workload: Workload
    let out: UnsafeMutablePointer<errcore_class>
    let dictionary: DictionaryBaseline
    let codeTable: Catalog
    /// The facade's batch output, reused between runs (its capacity is kept).
    var facadeOut: [Classification] = []
    /// The same table without its exact-match front: the index, as before the front existed.
    var indexOnly: errcore_table
    /// Allocations the facade's single-call loop made in the last run (-1: not counted here).
    var facadeAllocations: Int64 = -1

    init(workload: Workload) throws {
        self.workload = workload
        out = .allocate(capacity: workload.codes.count)
        out.initialize(repeating: 0, count: workload.codes.count)
        dictionary = DictionaryBaseline(table: workload.table)
        codeTable = try FacadeApproach.codeTable(for: workload.size)
        facadeOut.reserveCapacity(workload.codes.count)
        indexOnly = workload.table.pointee
        indexOnly.front = errcore_front()
        guard workload.table.pointee.front.slots != nil else {
            throw WorkloadError(description: "the \(workload.size.rawValue) table has no exact-match front")
        }
    }

    deinit {
        out.deallocate()
    }
}

/// The paths of errcore_classify_batch() this CPU has (scalar, AVX2, AVX-512, NEON), and the one
/// it picks by itself.
let batchPaths: [errcore_batch_path] = [
    ERRCORE_BATCH_PATH_SCALAR, ERRCORE_BATCH_PATH_AVX2, ERRCORE_BATCH_PATH_AVX512, ERRCORE_BATCH_PATH_NEON,
].filter { errcore_batch_path_available($0) }
let autoPath = String(cString: errcore_batch_path_name(errcore_batch_path_auto()))

func batchPathKey(_ path: errcore_batch_path) -> String {
    "c_batch_" + String(cString: errcore_batch_path_name(path))
}

/// errcore_classify_batch() on each available path, forced with errcore_classify_batch_using().
let batchPathApproaches: [Approach] = batchPaths.map { path in
    Approach(key: batchPathKey(path), name: "C batch, \(String(cString: errcore_batch_path_name(path))) path") {
        ctx, codes in
        let ran = errcore_classify_batch_using(ctx.workload.table, codes.baseAddress, ctx.out, codes.count, path)
        precondition(ran, "errcore_classify_batch_using refused an available path")
        return ctx.out[codes.count - 1]
    }
}

let otherApproaches: [Approach] = [
    Approach(key: "c_single", name: "C errcore_classify, one call per code") { ctx, codes in
        cbl_single_classify(ctx.workload.table, codes.baseAddress, ctx.out, codes.count)
        return ctx.out[codes.count - 1]
    },
    Approach(key: "swift_to_c", name: "Swift -> C errcore_classify per code") { ctx, codes in
        UInt64(bitPattern: Int64(SwiftToC.resolve(ctx.workload.table, codes)))
    },
    Approach(key: "swift_facade", name: "Swift facade Catalog.classify") { ctx, codes in
        let before = allocationsCounted ? allocation_count() : -1
        let sum = FacadeApproach.resolve(ctx.codeTable, codes)
        ctx.facadeAllocations = before < 0 ? -1 : allocation_count() - before
        return UInt64(bitPattern: Int64(sum))
    },
    Approach(key: "swift_facade_batch", name: "Swift facade Catalog.classify(batch)") { ctx, codes in
        ctx.codeTable.classify(codes, into: &ctx.facadeOut)
        return ctx.facadeOut[codes.count - 1].rawValue
    },
    Approach(key: "c_batch_index", name: "C errcore_classify_batch, no front (index)") { ctx, codes in
        withUnsafePointer(to: &ctx.indexOnly) { errcore_classify_batch($0, codes.baseAddress, ctx.out, codes.count) }
        return ctx.out[codes.count - 1]
    },
    Approach(key: "c_single_index", name: "C errcore_classify, no front (index)") { ctx, codes in
        withUnsafePointer(to: &ctx.indexOnly) { cbl_single_classify($0, codes.baseAddress, ctx.out, codes.count) }
        return ctx.out[codes.count - 1]
    },
    Approach(key: "int_enum", name: "Int enums: Base(rawValue:) then Module(rawValue:)") { ctx, codes in
        UInt64(bitPattern: Int64(IntEnumApproach.resolve(ctx.workload.size, codes)))
    },
    Approach(key: "dictionary", name: "Swift Dictionary<Int, Entry>") { ctx, codes in
        UInt64(bitPattern: Int64(ctx.dictionary.resolve(codes)))
    },
    Approach(key: "bsearch", name: "libc bsearch + comparator") { ctx, codes in
        cbl_bsearch_classify(ctx.workload.table, codes.baseAddress, ctx.out, codes.count)
        return ctx.out[codes.count - 1]
    },
    Approach(key: "branchy", name: "plain binary search (branchy)") { ctx, codes in
        cbl_branchy_classify(ctx.workload.table, codes.baseAddress, ctx.out, codes.count)
        return ctx.out[codes.count - 1]
    },
    Approach(key: "linear", name: "linear scan (early exit)") { ctx, codes in
        cbl_linear_classify(ctx.workload.table, codes.baseAddress, ctx.out, codes.count)
        return ctx.out[codes.count - 1]
    },
    Approach(key: "floor", name: "memory floor: sum of the input") { _, codes in
        cbl_memory_floor(codes.baseAddress, codes.count)
    },
    Approach(key: "copy_floor", name: "copy floor: write each code + 1 to out") { ctx, codes in
        cbl_copy_floor(codes.baseAddress, ctx.out, codes.count)
        return ctx.out[codes.count - 1]
    },
]

let approaches: [Approach] =
    [
        Approach(key: "c_batch", name: "C errcore_classify_batch (auto: \(autoPath))") { ctx, codes in
            errcore_classify_batch(ctx.workload.table, codes.baseAddress, ctx.out, codes.count)
            return ctx.out[codes.count - 1]
        }
    ] + batchPathApproaches + otherApproaches

/// The paths whose speed-ups are reported, and the baselines they are divided by.
let paths = ["c_batch", "c_single", "swift_facade"]
let baselines = ["int_enum", "dictionary", "bsearch", "branchy", "linear"]

// MARK: - checking that every approach agrees

/// Checks the C baselines and the facade against the C batch output, and the Int enums and the
/// dictionary against exact matches, on the first `n` codes. Returns a problem or nil.
func check(_ ctx: Context, n: Int) -> String? {
    let codes = UnsafeBufferPointer(rebasing: ctx.workload.codes[0..<n])
    let reference = UnsafeMutablePointer<errcore_class>.allocate(capacity: n)
    let other = UnsafeMutablePointer<errcore_class>.allocate(capacity: n)
    defer {
        reference.deallocate()
        other.deallocate()
    }
    errcore_classify_batch(ctx.workload.table, codes.baseAddress, reference, n)
    var cPaths: [(String, (UnsafeMutablePointer<errcore_class>) -> Void)] = batchPaths.map { path in
        (
            "the batch's \(String(cString: errcore_batch_path_name(path))) path",
            { _ = errcore_classify_batch_using(ctx.workload.table, codes.baseAddress, $0, n, path) }
        )
    }
    cPaths += [
        ("errcore_classify", { cbl_single_classify(ctx.workload.table, codes.baseAddress, $0, n) }),
        ("bsearch", { cbl_bsearch_classify(ctx.workload.table, codes.baseAddress, $0, n) }),
        ("branchy", { cbl_branchy_classify(ctx.workload.table, codes.baseAddress, $0, n) }),
        ("linear", { cbl_linear_classify(ctx.workload.table, codes.baseAddress, $0, n) }),
        ("facade", { FacadeApproach.classifyEach(ctx.codeTable, codes, into: $0) }),
        (
            "batch without the front",
            { out in withUnsafePointer(to: &ctx.indexOnly) { errcore_classify_batch($0, codes.baseAddress, out, n) } }
        ),
        (
            "single calls without the front",
            { out in withUnsafePointer(to: &ctx.indexOnly) { cbl_single_classify($0, codes.baseAddress, out, n) } }
        ),
    ]
    for (name, fill) in cPaths {
        fill(other)
        let k = cbl_first_difference(reference, other, n)
        if k != n {
            return "\(name) differs from errcore_classify_batch at index \(k) (code \(codes[k])): "
                + "\(other[k]) vs \(reference[k])"
        }
    }
    for k in 0..<n {
        let c = reference[k]
        let exact = errcore_class_is_exact(c)
        let tier = errcore_class_tier(c)
        let expected = !exact ? 0 : (tier == ERRCORE_TIER_MODULE ? 2 : 1)
        let kind = IntEnumApproach.kind(ctx.workload.size, codes[k])
        if kind != expected {
            return "Int enums say \(kind) for code \(codes[k]) at index \(k), C classifier says \(expected)"
        }
        let found = ctx.dictionary.map[Int(codes[k])]
        if (found != nil) != exact || (found.map { UInt32($0.index) != errcore_class_entry(c) } ?? false) {
            return "dictionary disagrees with the C classifier on code \(codes[k]) at index \(k)"
        }
    }
    return nil
}

// MARK: - timing

@MainActor func nowNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(options.wallClock ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

func medianOf(_ values: [Double]) -> Double {
    let s = values.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

struct Measurement {
    var samples: [Double] = []  // ns per code, one per repetition
    var codes = 0
    var median: Double { samples.isEmpty ? .nan : medianOf(samples) }
}

var sink: UInt64 = 0

/// An object the allocation probe keeps alive, so that its allocation cannot be left out.
final class AllocationProbe {
    var value = 0
}
nonisolated(unsafe) var allocationProbe: AllocationProbe? = nil

/// Whether allocations made inside the Swift runtime reach the counter: one object allocated
/// between two readings must raise the count. When it does not, the facade's allocation targets
/// are left out rather than reported as 0.
let allocationsCounted: Bool = {
    let before = allocation_count()
    guard before >= 0 else { return false }
    allocationProbe = AllocationProbe()
    return allocation_count() > before
}()

let options: Options = {
    var options = parseOptions()
    if !options.classification { options.tables = [] }
    return options
}()
var results: [TableSize: [String: Measurement]] = [:]
var mixes: [TableSize: cbl_input_mix] = [:]
/// The exact-match front of each table: slots, buckets, gap stretches (0: misses search the ranges).
var fronts: [TableSize: (slots: Int, buckets: Int, gaps: Int)] = [:]
/// Allocations of the facade's single-call loop, largest over the repetitions (-1: not counted).
var facadeAllocations: [TableSize: Int64] = [:]

for size in options.tables {
    let context: Context
    do {
        context = try Context(workload: Workload(size: size, count: options.count, hitPercent: options.hitPercent))
    } catch {
        FileHandleStderr.write("compare: \(error)\n")
        exit(1)
    }
    mixes[size] = context.workload.mix
    let front = context.workload.table.pointee.front
    fronts[size] = (
        Int(front.slot_mask) + 1, 1 << (32 - Int(front.bucket_shift)), front.gaps == nil ? 0 : front.gap_count
    )
    if options.check, let problem = check(context, n: min(options.count, 1_000_000)) {
        FileHandleStderr.write("compare: outputs disagree on the \(size.rawValue) table: \(problem)\n")
        exit(1)
    }
    if !options.json {
        FileHandleStderr.write("measuring \(size.label): \(options.count) codes, \(options.reps) repetitions...\n")
    }
    var table: [String: Measurement] = [:]
    for _ in 0..<options.reps {
        for approach in approaches where !options.skip.contains(approach.key) {
            var n = options.count
            if approach.key == "linear" && size == .synthetic4096 { n = min(n, options.linearCount) }
            let codes = UnsafeBufferPointer(rebasing: context.workload.codes[0..<n])
            let start = nowNanoseconds()
            sink &+= approach.run(context, codes)
            let elapsed = nowNanoseconds() - start
            table[approach.key, default: Measurement()].samples.append(Double(elapsed) / Double(n))
            table[approach.key]!.codes = n
            if approach.key == "swift_facade" {
                facadeAllocations[size] = max(facadeAllocations[size] ?? -1, context.facadeAllocations)
            }
        }
    }
    results[size] = table
}

// MARK: - envelope to Result

/// ns per body of the facade (`ResponseDecoder.result`) and of JSONDecoder decoding the whole
/// envelope, for each sample body; median of `reps` runs.
struct EnvelopeRow {
    let key: String
    let label: String
    let bytes: Int
    var facade: [Double] = []
    var jsonDecoder: [Double] = []
}

/// One sample body: its key (`small_failure`), label, bytes, whether its payload is the 64 KB page,
/// and whether its code is a failure.
struct EnvelopeSample {
    let key: String
    let label: String
    let body: Data
    let large: Bool
    let failure: Bool
}

/// The facade's side of one sample: `n` bodies through `ResponseDecoder.result`, each decoded
/// `times` times (1; 2 under `--plant-slowdown failure-path` for a failure body). Returns what
/// depends on every result.
@inline(never)
func facadeEnvelopes(_ sample: EnvelopeSample, n: Int, times: Int, decoder: ResponseDecoder) -> UInt64 {
    var sum: UInt64 = 0
    let body = sample.body
    for _ in 0..<n {
        var round = 0
        repeat {
            if sample.large {
                if case .success(let page) = decoder.result(ClassPage.self, module: StudyGroupCode.self, from: body) {
                    sum &+= UInt64(page.items.count)
                } else {
                    sum &+= 1
                }
            } else {
                if case .success(let info) = decoder.result(ClassInfo.self, module: StudyGroupCode.self, from: body) {
                    sum &+= UInt64(info.id)
                } else {
                    sum &+= 1
                }
            }
            round += 1
        } while round < times
    }
    return sum
}

/// The baseline's side of one sample: `n` bodies through `EnvelopeSamples.decodableResult`
/// (`JSONDecoder` decoding the whole envelope, then the Int enums on its code). Returns what
/// depends on every result.
@inline(never)
func jsonDecoderEnvelopes(_ sample: EnvelopeSample, n: Int, decoder: JSONDecoder) -> UInt64 {
    var sum: UInt64 = 0
    let body = sample.body
    for _ in 0..<n {
        if sample.large {
            if case .success(let page) = EnvelopeSamples.decodableResult(ClassPage.self, from: body, decoder: decoder) {
                sum &+= UInt64(page.items.count)
            } else {
                sum &+= 1
            }
        } else {
            if case .success(let info) = EnvelopeSamples.decodableResult(ClassInfo.self, from: body, decoder: decoder) {
                sum &+= UInt64(info.id)
            } else {
                sum &+= 1
            }
        }
    }
    return sum
}

let envelopeSamples: [EnvelopeSample] = [
    EnvelopeSample(
        key: "small_success", label: "small success", body: EnvelopeSamples.smallSuccess, large: false, failure: false),
    EnvelopeSample(
        key: "small_failure", label: "small failure", body: EnvelopeSamples.smallFailure, large: false, failure: true),
    EnvelopeSample(
        key: "64KB_success", label: "64KB success", body: EnvelopeSamples.largeSuccess, large: true, failure: false),
    EnvelopeSample(
        key: "64KB_failure", label: "64KB failure", body: EnvelopeSamples.largeFailure, large: true, failure: true),
]

var envelopeRows: [EnvelopeRow] = []
if options.envelopes {
    let decoder = ResponseDecoder()
    let json = JSONDecoder()
    for sample in envelopeSamples where options.envelopeKeys.isEmpty || options.envelopeKeys.contains(sample.key) {
        var row = EnvelopeRow(key: sample.key, label: sample.label, bytes: sample.body.count)
        let n = sample.large ? 100 : 20_000
        let times = options.plant == .failurePath && sample.failure ? 2 : 1
        for _ in 0..<options.reps {
            var start = nowNanoseconds()
            sink &+= facadeEnvelopes(sample, n: n, times: times, decoder: decoder)
            row.facade.append(Double(nowNanoseconds() - start) / Double(n))
            start = nowNanoseconds()
            sink &+= jsonDecoderEnvelopes(sample, n: n, decoder: json)
            row.jsonDecoder.append(Double(nowNanoseconds() - start) / Double(n))
        }
        envelopeRows.append(row)
    }
}

// MARK: - string codes

/// ns per probe of each way to classify string codes among one count of keys.
struct StringRow {
    let keys: Int
    var samples: [String: [Double]] = [:]
    func median(_ key: String) -> Double { samples[key].map(medianOf) ?? .nan }
}

/// The ways the string rows compare, by JSON key.
let stringApproaches: [(key: String, name: String)] = [
    ("string_c", "C errcore_classify_string, one call per code"),
    ("string_int", "C errcore_classify, the entries' int codes"),
    ("string_sorted", "sorted array, binary search (length, then memcmp)"),
    ("string_dictionary", "Swift Dictionary<String, UInt64>"),
]

/// errcore_classify_string()'s class for a string no table lists (ERRCORE_CLASS_UNKNOWN).
let unknownStringClass = errcore_class(ERRCORE_NO_ENTRY)

/// The Swift Dictionary on the workload's keys, each to its class.
@inline(never)
func dictionaryStrings(_ map: [String: UInt64], _ probes: [String], _ n: Int) -> UInt64 {
    var sum: UInt64 = 0
    for i in 0..<n { sum &+= map[probes[i]] ?? unknownStringClass }
    return sum
}

var stringRows: [StringRow] = []
if options.strings {
    for keys in [32, 1_000, 10_000] {
        var w = cbl_string_workload()
        var err = [CChar](repeating: 0, count: 256)
        let n = min(options.count, 1_000_000)
        guard cbl_string_workload_make(keys, n, 0x5EED, &w, &err, err.count) == 0 else {
            FileHandleStderr.write("compare: \(String(cString: err))\n")
            exit(1)
        }
        defer { cbl_string_workload_free(&w) }
        func text(_ bytes: UnsafePointer<CChar>, _ length: Int) -> String {
            String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
        }
        var map: [String: UInt64] = [:]
        for k in 0..<keys {
            map[text(w.keys[k]!, w.key_lengths[k])] = errcore_classify(&w.table, Int64(k) + 1)
        }
        let probes = (0..<n).map { text(w.probes[$0]!, w.probe_lengths[$0]) }
        let out = UnsafeMutablePointer<errcore_class>.allocate(capacity: n)
        let other = UnsafeMutablePointer<errcore_class>.allocate(capacity: n)
        defer {
            out.deallocate()
            other.deallocate()
        }
        if options.check {
            cbl_string_classify(&w, out, n)
            cbl_string_sorted_classify(&w, other, n)
            var problem = cbl_first_difference(out, other, n) == n ? nil : "the sorted array"
            cbl_string_int_classify(&w, other, n)
            for i in 0..<n where problem == nil {
                if map[probes[i]] ?? unknownStringClass != out[i] { problem = "the Dictionary at probe \(i)" }
                if w.probe_codes[i] >= 0 && other[i] != out[i] { problem = "the integer call at probe \(i)" }
            }
            if let problem {
                FileHandleStderr.write("compare: \(problem) disagrees with errcore_classify_string (\(keys) keys)\n")
                exit(1)
            }
        }
        var row = StringRow(keys: keys)
        for _ in 0..<options.reps {
            for (key, _) in stringApproaches where !options.skip.contains(key) {
                let start = nowNanoseconds()
                switch key {
                case "string_c":
                    cbl_string_classify(&w, out, n)
                    if options.plant == .stringLookup { cbl_string_classify(&w, out, n) }
                case "string_int": cbl_string_int_classify(&w, out, n)
                case "string_sorted": cbl_string_sorted_classify(&w, out, n)
                default: sink &+= dictionaryStrings(map, probes, n)
                }
                row.samples[key, default: []].append(Double(nowNanoseconds() - start) / Double(n))
                sink &+= out[n - 1]
            }
        }
        stringRows.append(row)
    }
}

// MARK: - output

func fmt(_ value: Double, _ decimals: Int = 2) -> String {
    guard value.isFinite else { return "-" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = String(rounded)
    if let dot = text.firstIndex(of: ".") {
        let have = text.distance(from: dot, to: text.endIndex) - 1
        if have < decimals { text += String(repeating: "0", count: decimals - have) }
    } else if decimals > 0 {
        text += "." + String(repeating: "0", count: decimals)
    }
    return text
}

func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let n = text.count
    guard n < width else { return text }
    let spaces = String(repeating: " ", count: width - n)
    return right ? spaces + text : text + spaces
}

@MainActor func ratio(_ baseline: String, _ path: String, _ size: TableSize) -> Double {
    guard let b = results[size]?[baseline]?.median, let p = results[size]?[path]?.median else { return .nan }
    return b / p
}

/// One target: what it is, the measured value, and the bound (met when value >= bound, or, for a
/// negative bound, when value <= -bound).
struct Target {
    /// A name that stays the same from run to run (`envelope_small_failure`), for a gate to read.
    let key: String
    let name: String
    let value: Double
    let bound: Double
}

/// The classification targets, all from this run's medians.
@MainActor func classificationTargets() -> [Target] {
    var list: [Target] = [
        Target(
            key: "c_batch_vs_int_enum_default", name: "C batch vs Int enums, default catalog (>= 8x)",
            value: ratio("int_enum", "c_batch", .catalog32), bound: 8),
        Target(
            key: "c_batch_vs_int_enum_4096", name: "C batch vs Int enums, 4096 codes (>= 20x)",
            value: ratio("int_enum", "c_batch", .synthetic4096), bound: 20),
    ]
    for size in options.tables {
        list.append(
            Target(
                key: "c_batch_vs_bsearch_\(size.rawValue)", name: "C batch vs libc bsearch, \(size.label) (>= 12x)",
                value: ratio("bsearch", "c_batch", size), bound: 12))
    }
    list.append(
        Target(
            key: "c_batch_over_floor_256", name: "C batch / memory floor, 256 codes (<= 2x)",
            value: 1 / ratio("floor", "c_batch", .synthetic256), bound: -2))
    list.append(
        Target(
            key: "c_single_vs_int_enum_default", name: "C single call vs Int enums, default catalog (>= 4x)",
            value: ratio("int_enum", "c_single", .catalog32), bound: 4))
    for size in options.tables {
        // facade time / C single-call time must be <= 1.1
        list.append(
            Target(
                key: "facade_over_c_single_\(size.rawValue)",
                name: "Swift facade / C single call, \(size.label) (<= 1.1x)",
                value: 1 / ratio("c_single", "swift_facade", size), bound: -1.1))
    }
    for size in options.tables where (facadeAllocations[size] ?? -1) >= 0 {
        list.append(
            Target(
                key: "facade_allocations_\(size.rawValue)",
                name: "Swift facade allocations over \(options.count) codes, \(size.label) (== 0)",
                value: Double(facadeAllocations[size]!), bound: -0.0))
    }
    return list.filter { !$0.value.isNaN }
}

/// The envelope targets: envelope -> Result through the facade against JSONDecoder on the
/// same body (median over median).
@MainActor func envelopeTargets() -> [Target] {
    var list: [Target] = []
    for (key, needed) in [
        ("small_failure", 15.0), ("small_success", 4.0), ("64KB_success", 2.0), ("64KB_failure", 25.0),
    ] {
        if let row = envelopeRows.first(where: { $0.key == key }) {
            list.append(
                Target(
                    key: "envelope_\(key)",
                    name: "envelope->Result vs JSONDecoder, \(row.label) body (>= \(Int(needed))x)",
                    value: medianOf(row.jsonDecoder) / medianOf(row.facade), bound: needed))
        }
    }
    return list
}

/// The string-code targets: the lookup against the integer single call on the same entries
/// (at most 2x its time) and against Swift's Dictionary (at least 3x faster).
@MainActor func stringTargets() -> [Target] {
    stringRows.flatMap { row -> [Target] in
        [
            Target(
                key: "string_over_int_call_\(row.keys)",
                name: "string lookup / integer single call, \(row.keys) keys (<= 2x)",
                value: row.median("string_c") / row.median("string_int"), bound: -2),
            Target(
                key: "string_vs_dictionary_\(row.keys)",
                name: "string lookup vs Swift Dictionary, \(row.keys) keys (>= 3x)",
                value: row.median("string_dictionary") / row.median("string_c"), bound: 3),
        ]
    }.filter { !$0.value.isNaN }
}

func met(_ target: Target) -> Bool {
    target.bound.sign == .plus ? target.value >= target.bound : target.value <= -target.bound
}

if options.json {
    var out =
        "{\n  \"clock\": \"\(options.wallClock ? "wall" : "thread_cpu")\",\n  \"count\": \(options.count),\n  \"reps\": \(options.reps),\n  \"hit_percent\": \(options.hitPercent),\n"
    out +=
        "  \"seed\": \(Workload.defaultSeed),\n  \"linear_count_4096\": \(min(options.count, options.linearCount)),\n"
    out += "  \"planted\": \(options.plant.map { "\"\($0.rawValue)\"" } ?? "null"),\n"
    out += "  \"tables\": {\n"
    out += options.tables.map { size -> String in
        let mix = mixes[size]!
        var s = "    \"\(size.rawValue)\": {\n"
        s +=
            "      \"mix\": {\"hits\": \(mix.hits), \"unrecognised\": \(mix.unrecognised), \"unknown\": \(mix.unknown)},\n"
        s += "      \"ns_per_code\": {\n"
        s += approaches.filter { !options.skip.contains($0.key) }.map { a -> String in
            let m = results[size]![a.key]!
            let samples = m.samples.map { fmt($0, 3) }.joined(separator: ", ")
            return
                "        \"\(a.key)\": {\"median\": \(fmt(m.median, 3)), \"codes\": \(m.codes), \"samples\": [\(samples)]}"
        }.joined(separator: ",\n")
        s += "\n      },\n      \"speedup\": {\n"
        s += (paths + batchPaths.map(batchPathKey)).map { p -> String in
            let floors = baselines + ["floor", "copy_floor"]
            let inner = floors.map { b in "\"\(b)\": \(fmt(ratio(b, p, size), 3))" }.joined(separator: ", ")
            return "        \"\(p)\": {\(inner)}"
        }.joined(separator: ",\n")
        s += "\n      }\n    }"
        return s
    }.joined(separator: ",\n")
    out += "\n  },\n  \"envelopes\": [\n"
    out += envelopeRows.map { r in
        "    {\"key\": \"\(r.key)\", \"body\": \"\(r.label)\", \"bytes\": \(r.bytes), "
            + "\"facade_ns\": \(fmt(medianOf(r.facade), 1)), \"jsondecoder_ns\": \(fmt(medianOf(r.jsonDecoder), 1)), "
            + "\"speedup\": \(fmt(medianOf(r.jsonDecoder) / medianOf(r.facade), 3)), "
            + "\"facade_samples\": [\(r.facade.map { fmt($0, 1) }.joined(separator: ", "))], "
            + "\"jsondecoder_samples\": [\(r.jsonDecoder.map { fmt($0, 1) }.joined(separator: ", "))]}"
    }.joined(separator: ",\n")
    out += "\n  ],\n  \"strings\": [\n"
    out += stringRows.map { r in
        "    {\"keys\": \(r.keys), \"ns_per_code\": {"
            + stringApproaches.filter { r.samples[$0.key] != nil }.map { a in
                "\"\(a.key)\": {\"median\": \(fmt(r.median(a.key), 3)), "
                    + "\"samples\": [\(r.samples[a.key]!.map { fmt($0, 3) }.joined(separator: ", "))]}"
            }.joined(separator: ", ") + "}}"
    }.joined(separator: ",\n")
    let targetList = classificationTargets() + envelopeTargets() + stringTargets()
    out += "\n  ],\n  \"targets\": [\n"
    out += targetList.map { t in
        "    {\"key\": \"\(t.key)\", \"target\": \"\(t.name)\", \"value\": \(fmt(t.value, 3)), "
            + "\"bound\": \(fmt(abs(t.bound), 3)), \"kind\": \"\(t.bound.sign == .plus ? "at_least" : "at_most")\", "
            + "\"met\": \(met(t))}"
    }.joined(separator: ",\n")
    out += "\n  ],\n  \"all_targets_met\": \(targetList.allSatisfy(met)),\n  \"sink\": \(sink)\n}"
    print(out)
} else {
    let width = 46
    if !options.tables.isEmpty {
        print(
            "ns per code (\(options.wallClock ? "wall clock" : "thread CPU time")), median of \(options.reps) runs; \(options.count) codes per table, \(options.hitPercent) % hits "
                + "(linear scan at 4096: first \(min(options.count, options.linearCount)) codes)")
        for size in options.tables {
            let m = mixes[size]!
            let f = fronts[size]!
            print(
                "  \(size.label): \(m.hits) hits, \(m.unrecognised) unlisted in a module range, \(m.unknown) unknown; "
                    + "front: \(f.slots) slots, \(f.buckets) bucket\(f.buckets == 1 ? "" : "s"), "
                    + (f.gaps == 0 ? "misses search the ranges" : "\(f.gaps) gap stretches"))
        }
        print("")
        print(
            pad("approach", width) + options.tables.map { pad($0.label, 12, right: true) }.joined()
                + "   spread (max/min)")
        for a in approaches where !options.skip.contains(a.key) {
            var line = pad(a.name, width)
            var spreads: [String] = []
            for size in options.tables {
                let m = results[size]![a.key]!
                line += pad(fmt(m.median), 12, right: true)
                spreads.append(fmt(m.samples.max()! / m.samples.min()!))
            }
            print(line + "   " + spreads.joined(separator: " "))
        }
        for p in paths {
            print("")
            let name = approaches.first { $0.key == p }!.name
            print("speed-up of \(name) (baseline ns / its ns; floor row: its ns / floor ns)")
            for b in baselines {
                let bname = approaches.first { $0.key == b }!.name
                print(
                    pad("  vs " + bname, width)
                        + options.tables.map { pad(fmt(ratio(b, p, $0), 1) + "x", 12, right: true) }.joined())
            }
            print(
                pad("  times the memory floor", width)
                    + options.tables.map { pad(fmt(1 / ratio("floor", p, $0), 1) + "x", 12, right: true) }.joined())
        }
        print("")
        print(
            "paths of C errcore_classify_batch (auto picks \(autoPath) here): times the memory floor, "
                + "and times the copy floor, of the same run")
        for path in batchPaths {
            let key = batchPathKey(path)
            print(
                pad("  " + String(cString: errcore_batch_path_name(path)), width)
                    + options.tables.map { pad(fmt(1 / ratio("floor", key, $0), 2) + "x", 12, right: true) }.joined()
                    + "   "
                    + options.tables.map { fmt(1 / ratio("copy_floor", key, $0), 2) + "x" }.joined(separator: " "))
        }
        print(
            pad("  copy floor", width)
                + options.tables.map { pad(fmt(1 / ratio("floor", "copy_floor", $0), 2) + "x", 12, right: true) }
                .joined())
    }
    if !envelopeRows.isEmpty {
        print("")
        print(
            "envelope to Result, ns per body (median): facade ResponseDecoder.result vs JSONDecoder of the whole envelope"
                + (options.plant == .failurePath ? " (PLANTED: the facade decodes each failure body twice)" : "")
        )
        for r in envelopeRows {
            let f = medianOf(r.facade)
            let j = medianOf(r.jsonDecoder)
            print(
                pad("  \(r.label) (\(r.bytes) bytes)", width) + pad(fmt(f, 0), 12, right: true)
                    + pad(fmt(j, 0), 12, right: true) + pad(fmt(j / f, 2) + "x", 12, right: true))
        }
    }
    if !stringRows.isEmpty {
        print("")
        print("string codes, ns per code (median): 90 % listed keys, 10 % other strings, 8 to 32 bytes")
        print(pad("approach", width) + stringRows.map { pad("\($0.keys) keys", 12, right: true) }.joined())
        for a in stringApproaches where !options.skip.contains(a.key) {
            print(pad(a.name, width) + stringRows.map { pad(fmt($0.median(a.key)), 12, right: true) }.joined())
        }
    }
    let targetList = classificationTargets() + envelopeTargets() + stringTargets()
    print("")
    print("targets")
    for t in targetList {
        let value = t.name.contains("allocations") ? String(Int(t.value)) : fmt(t.value, 2) + "x"
        print("  [\(met(t) ? "met" : "MISSED")] \(t.name): \(value)")
    }
    let missed = targetList.filter { !met($0) }.count
    print("  \(targetList.count - missed) of \(targetList.count) met" + (missed == 0 ? "" : ", \(missed) MISSED"))
    print("(sink \(sink))")
}
