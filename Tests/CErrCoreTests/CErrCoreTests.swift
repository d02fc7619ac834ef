import CErrCore
import CErrDefaultCatalog
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Exercises the C core directly through its Swift import, as the facade does.
@Suite("CErrCore through Swift")
struct CErrCoreTests {
    var table: UnsafePointer<errcore_table> { errcore_default_table() }

    @Test("the default table is valid")
    func defaultTableIsValid() {
        var diag = errcore_diag()
        #expect(errcore_validate(table, &diag) == ERRCORE_OK)
        #expect(table.pointee.entry_count == 32)
        #expect(table.pointee.module_count == 7)
    }

    @Test(
        "tiers of the default catalog",
        arguments: [
            (0, ERRCORE_TIER_SUCCESS),
            (11001, ERRCORE_TIER_BASE),
            (11011, ERRCORE_TIER_BASE),
            (11210005, ERRCORE_TIER_MODULE),
            (11219999, ERRCORE_TIER_MODULE),
            (4_294_978_297, ERRCORE_TIER_UNKNOWN),
            (-11001, ERRCORE_TIER_UNKNOWN),
            (Int64.min, ERRCORE_TIER_UNKNOWN),
            (Int64.max, ERRCORE_TIER_UNKNOWN),
        ] as [(Int64, errcore_tier)])
    func tier(code: Int64, expected: errcore_tier) {
        #expect(errcore_class_tier(errcore_classify(table, code)) == expected)
    }

    @Test("token expiry asks for re-authentication")
    func tokenExpiryFlag() {
        let c = errcore_classify(table, 11001)
        #expect(errcore_class_flags(c) & UInt8(ERRCORE_FLAG_REAUTH) != 0)
        #expect(String(cString: errcore_entry_name(table, errcore_class_entry(c))) == "tokenExpire")
    }

    @Test("describe writes into the caller's buffer in both languages")
    func describe() {
        func text(_ code: Int64, _ lang: errcore_lang) -> String {
            let needed = errcore_describe(table, code, lang, nil, 0)
            var buffer = [CChar](repeating: 0, count: needed + 1)
            #expect(errcore_describe(table, code, lang, &buffer, buffer.count) == needed)
            return String(decoding: buffer.prefix(needed).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        #expect(text(11210005, ERRCORE_LANG_EN) == "The class code is wrong.")
        #expect(text(11210005, ERRCORE_LANG_ZH_HANS) == "班级码错误。")
        #expect(text(11219999, ERRCORE_LANG_EN) == "Unrecognised Study group error (code 11219999)")
    }

    @Test("a table built from Swift strings classifies and rejects duplicates with indices")
    func buildFromSwift() throws {
        let words: [String] = ["alpha", "one", "two", "dup"]
        let owned = words.map { strdup($0)! }
        defer {
            for pointer in owned { free(pointer) }
        }
        let names = owned.map { UnsafePointer($0) }
        var module = errcore_module_def(name: names[0], title_en: nil, title_zh: nil, titles: nil)
        let ranges = [errcore_range(first: 100, last: 199, module: 1)]
        var entries = [
            errcore_entry_def(
                code: 150, module: 1, flags: 0, name: names[1], message_en: nil, message_zh: nil, messages: nil),
            errcore_entry_def(
                code: 7, module: 0, flags: UInt8(ERRCORE_FLAG_RETRYABLE), name: names[2],
                message_en: nil, message_zh: nil, messages: nil),
        ]
        func build(_ entries: inout [errcore_entry_def]) -> (errcore_status, errcore_diag, Int64?) {
            var diag = errcore_diag()
            return entries.withUnsafeBufferPointer { e in
                ranges.withUnsafeBufferPointer { r in
                    withUnsafePointer(to: &module) { m in
                        var def = errcore_catalog_def(
                            success_code: 0, entries: e.baseAddress, entry_count: e.count,
                            modules: m, module_count: 1, ranges: r.baseAddress, range_count: r.count, languages: nil,
                            language_count: 0)
                        var size = 0
                        guard errcore_build_size(&def, &size, &diag) == ERRCORE_OK else {
                            return (diag.status, diag, nil)
                        }
                        let storage = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
                        defer { storage.deallocate() }
                        var table = errcore_table()
                        let status = errcore_build(&def, storage, size, &table, &diag)
                        let tier =
                            status == ERRCORE_OK
                            ? Int64(errcore_class_tier(errcore_classify(&table, 150)).rawValue) : nil
                        return (status, diag, tier)
                    }
                }
            }
        }
        let ok = build(&entries)
        #expect(ok.0 == ERRCORE_OK)
        #expect(ok.2 == Int64(ERRCORE_TIER_MODULE.rawValue))

        entries.append(
            errcore_entry_def(
                code: 150, module: 1, flags: 0, name: names[3], message_en: nil, message_zh: nil, messages: nil))
        let dup = build(&entries)
        #expect(dup.0 == ERRCORE_E_DUPLICATE_CODE)
        #expect(dup.1.index == 2)
        #expect(dup.1.other_index == 0)
        #expect(dup.1.code == 150)
    }

    @Test("check_catalog reports every problem through a C callback, with input indices")
    func checkCatalogReportsEveryProblem() throws {
        let words: [String] = ["alpha", "one", "two"]
        let owned = words.map { strdup($0)! }
        defer {
            for pointer in owned { free(pointer) }
        }
        let names = owned.map { UnsafePointer($0) }
        // Module 2 repeats module 1's name, range 1 overlaps range 0, entry 1 repeats entry 0's code.
        let modules = [
            errcore_module_def(name: names[0], title_en: nil, title_zh: nil, titles: nil),
            errcore_module_def(name: names[0], title_en: nil, title_zh: nil, titles: nil),
        ]
        let ranges = [errcore_range(first: 100, last: 199, module: 1), errcore_range(first: 150, last: 250, module: 2)]
        let entries = [
            errcore_entry_def(
                code: 120, module: 1, flags: 0, name: names[1], message_en: nil, message_zh: nil, messages: nil),
            errcore_entry_def(
                code: 120, module: 1, flags: 0, name: names[2], message_en: nil, message_zh: nil, messages: nil),
        ]
        final class Reports { var diags: [errcore_diag] = [] }
        let reports = Reports()
        let status = entries.withUnsafeBufferPointer { e in
            ranges.withUnsafeBufferPointer { r in
                modules.withUnsafeBufferPointer { m in
                    var def = errcore_catalog_def(
                        success_code: 0, entries: e.baseAddress, entry_count: e.count,
                        modules: m.baseAddress, module_count: m.count, ranges: r.baseAddress, range_count: r.count,
                        languages: nil, language_count: 0)
                    var size = 0
                    guard errcore_check_size(&def, &size, nil) == ERRCORE_OK else { return ERRCORE_E_COUNT_OVERFLOW }
                    let scratch = UnsafeMutableRawPointer.allocate(byteCount: max(size, 1), alignment: 8)
                    defer { scratch.deallocate() }
                    return withExtendedLifetime(reports) {
                        errcore_check_catalog(
                            &def, scratch, size,
                            { context, diag in
                                Unmanaged<Reports>.fromOpaque(context!).takeUnretainedValue().diags.append(
                                    diag!.pointee)
                                return 0
                            }, Unmanaged.passUnretained(reports).toOpaque())
                    }
                }
            }
        }
        #expect(status == ERRCORE_E_DUPLICATE_MODULE_NAME)
        #expect(
            reports.diags.map(\.status) == [
                ERRCORE_E_DUPLICATE_MODULE_NAME, ERRCORE_E_RANGE_OVERLAP,
                ERRCORE_E_DUPLICATE_CODE,
            ])
        #expect(reports.diags.map(\.index) == [1, 1, 1])
        #expect(reports.diags.map(\.other_index) == [0, 0, 0])
        #expect(String(cString: errcore_status_name(ERRCORE_E_MISALIGNED)) == "ERRCORE_E_MISALIGNED")
        // Every status has a name through Swift, and the count is where the names end.
        for value in 0..<ERRCORE_STATUS_COUNT {
            #expect(String(cString: errcore_status_name(errcore_status(UInt32(value)))) != "ERRCORE_E_UNKNOWN")
        }
        let pastTheLast = errcore_status(UInt32(ERRCORE_STATUS_COUNT))
        #expect(String(cString: errcore_status_name(pastTheLast)) == "ERRCORE_E_UNKNOWN")
    }

    @Test("batch agrees with single classification on random codes")
    func batchMatchesSingle() {
        var state: UInt64 = 42
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let codes: [Int64] = (0..<10_000).map { i in
            switch i % 4 {
            case 0: return table.pointee.codes[Int(next() % UInt64(table.pointee.entry_count))]
            case 1: return 11_210_000 + Int64(next() % 10_000)
            case 2: return Int64(bitPattern: next())
            default: return Int64(next() % 30_000_000)
            }
        }
        var out = [errcore_class](repeating: 0, count: codes.count)
        errcore_classify_batch(table, codes, &out, codes.count)
        #expect(zip(codes, out).allSatisfy { errcore_classify(table, $0) == $1 })
    }

    @Test("every batch path this CPU has agrees with single classification; the others refuse")
    func batchPathsMatchSingle() {
        let codes: [Int64] = (0..<1_003).map { i in
            i % 3 == 0 ? table.pointee.codes[i % table.pointee.entry_count] : 11_209_000 + Int64(i) * 7
        }
        let want = codes.map { errcore_classify(table, $0) }
        var ran: [String] = []
        for raw in 0..<UInt32(ERRCORE_BATCH_PATH_COUNT) {
            let path = errcore_batch_path(rawValue: raw)
            var out = [errcore_class](repeating: 0xA5A5, count: codes.count)
            let classified = errcore_classify_batch_using(table, codes, &out, codes.count, path)
            #expect(classified == errcore_batch_path_available(path))
            #expect(classified ? out == want : out.allSatisfy { $0 == 0xA5A5 })
            if classified { ran.append(String(cString: errcore_batch_path_name(path))) }
        }
        #expect(ran.contains("auto") && ran.contains("scalar"))
        #expect(ran.contains(String(cString: errcore_batch_path_name(errcore_batch_path_auto()))))
    }
}
