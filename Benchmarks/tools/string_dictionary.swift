// string_dictionary.swift — the Swift baseline of string-lookup.sh: ns per lookup in a
// `Dictionary<String, UInt64>` (string code → class) on the same keys and workload as
// string_lookup.c (1 M lookups, 90 % listed keys, 10 % strings of the same alphabet that are not;
// the workload's strings made before timing). Median of 9 runs. Built with `swiftc -O` by the
// script; a benchmark, never a test.
//
// usage: string_dictionary KEYS_FILE...

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

func nanoseconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) * 1e9 + Double(ts.tv_nsec)
}

/// SplitMix64, as bench_timing.h's next().
struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

let alphabet = Array("abcdefghijklmnopqrstuvwxyz_")
print("Swift Dictionary<String, UInt64>, ns per lookup (median of 9 runs of 1000000 lookups)")
for path in CommandLine.arguments.dropFirst() {
    guard let file = fopen(path, "r") else { fatalError("cannot open \(path)") }
    var keys: [String] = []
    var buffer = [CChar](repeating: 0, count: 256)
    while fgets(&buffer, 256, file) != nil {
        let line = String(cString: buffer)
        keys.append(String(line.dropLast(line.hasSuffix("\n") ? 1 : 0)))
    }
    fclose(file)
    var table: [String: UInt64] = [:]
    for (index, key) in keys.enumerated() { table[key] = UInt64(index + 1) }
    var random = SplitMix(state: 42)
    var probes: [String] = []
    probes.reserveCapacity(1_000_000)
    for _ in 0..<1_000_000 {
        if random.next() % 10 == 0 {
            let length = 8 + Int(random.next() % 25)
            probes.append(String((0..<length).map { _ in alphabet[Int(random.next() % 27)] }))
        } else {
            probes.append(keys[Int(random.next() % UInt64(keys.count))])
        }
    }
    var times: [Double] = []
    var sink: UInt64 = 0
    for _ in 0..<9 {
        let start = nanoseconds()
        for probe in probes { sink &+= table[probe] ?? 0 }
        times.append((nanoseconds() - start) / Double(probes.count))
    }
    times.sort()
    print("\(keys.count) keys: \(times[4]) ns (sink \(sink % 7))")
}
