// The property test of `errcat gen`: random hostile catalogs (names that are Swift keywords,
// titles and messages made of CR, LF, CRLF, NEL, U+2028/9, backslash-newline, `*/` with combining
// marks, trigraphs, bidi controls, quotes and interpolations; negative, adjacent and extreme ranges;
// many modules) go through `check`, `gen c`, `gen swift` and `gen swift --installing` (the
// SwiftErrCatalogPlugin's form). The C must compile with gcc and clang under -std=c11 -Wall -Wextra
// -Wpedantic -Werror and classify every probe code as a linear scan over the catalog says; the
// Swift must compile against the package's SwiftErr and its enums must give back the catalog's
// modules, cases, codes, names, flags and messages; string codes (hostile strings in hostile
// namespaces, format 3) must be classified by the generated C string table as a linear scan over
// the catalog says, and come back from the Swift enums and the installing form byte for byte; the
// installing form must give back the catalog's
// definition, classify every probe code through the installed catalog's enums as the linear scan
// says, and refuse a second catalog. Catalogs carrying one reserved name are rejected by `check` at
// that name.
//
// Reproducible: ERRCAT_PROPERTY_SEED (default 1) and ERRCAT_PROPERTY_CATALOGS (default 8) choose
// the catalogs; a failure names the seed and the catalog. .ci/run runs a larger set.

import Foundation
import SwiftErrCatalogFile
import Testing

@testable import SwiftErr

@Suite("errcat gen: property test over random hostile catalogs")
struct GeneratedSourcePropertyTests {
    static let environment = ProcessInfo.processInfo.environment
    static let seed = UInt64(environment["ERRCAT_PROPERTY_SEED"] ?? "") ?? 1
    static let catalogCount = Int(environment["ERRCAT_PROPERTY_CATALOGS"] ?? "") ?? 8
    /// Catalogs compiled together: one C program and one Swift module per batch.
    static let batchSize = 12

    @Test(
        "random hostile catalogs: check, gen c + gen swift, compile with -Werror, classify as the catalog says",
        .enabled(if: !GeneratedSourceToolchain.cCompilers.isEmpty && GeneratedSourceToolchain.swiftUnavailable == nil))
    func randomCatalogs() async throws {
        let started = Date()
        var generator = HostileCatalogGenerator(seed: Self.seed, stringCodes: true)
        var index = 0
        var modules = 0
        var entries = 0
        var probes = 0
        var poisoned = 0
        var stringProbes = 0
        var batches: [[RandomCatalog]] = []
        while index < Self.catalogCount {
            let count = min(Self.batchSize, Self.catalogCount - index)
            batches.append((0..<count).map { generator.catalog(number: index + $0) })
            index += count
        }
        // The batches' work is compilers in child processes, one at a time: as many batches at once
        // as there are cores.
        let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
        try await withThrowingTaskGroup(of: Void.self) { group in
            var running = 0
            for batch in batches {
                if running == width {
                    try await group.next()
                    running -= 1
                }
                group.addTask { try await Self.check(batch) }
                running += 1
            }
            try await group.waitForAll()
        }
        for catalog in batches.joined() {
            modules += catalog.definition.modules.count
            entries += 1 + catalog.definition.base.count + catalog.definition.modules.reduce(0) { $0 + $1.codes.count }
            probes += catalog.probes.count
            poisoned += catalog.poisoned == nil ? 0 : 1
            stringProbes += catalog.stringProbes.count
        }
        let seconds = String(format: "%.1f", Date().timeIntervalSince(started))
        print(
            "property test: seed \(Self.seed), \(Self.catalogCount) catalogs (\(modules) modules, \(entries) entries, \(probes) probe codes and \(stringProbes) string codes classified by two C compilers' builds), \(poisoned) poisoned variants rejected, \(seconds) s"
        )
    }

    /// Runs one batch end to end.
    static func check(_ batch: [RandomCatalog]) async throws {
        let directory = try ErrcatRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let context = "seed \(seed), catalogs \(batch.first!.number)...\(batch.last!.number)"
        var cSources: [URL] = []
        var swiftFiles: [URL] = []
        var installingFiles: [URL] = []
        for catalog in batch {
            let file = directory.appendingPathComponent("catalog\(catalog.number).json")
            try Data(catalog.text.utf8).write(to: file)
            let check = try ErrcatRunner.run(["check", file.path])
            try #require(check.status == 0, "\(context), catalog \(catalog.number): \(check.errors)\n\(catalog.text)")
            try checkPoisoned(catalog, directory: directory, context: context)
            let cFile = directory.appendingPathComponent("\(catalog.definition.name)_catalog.c")
            let genC = try ErrcatRunner.run(["gen", "c", file.path, "--output", cFile.path])
            try #require(genC.status == 0, "\(context), catalog \(catalog.number): \(genC.errors)")
            cSources.append(cFile)
            let swiftDirectory = directory.appendingPathComponent("swift\(catalog.number)")
            try FileManager.default.createDirectory(at: swiftDirectory, withIntermediateDirectories: true)
            let genSwift = try ErrcatRunner.run(["gen", "swift", file.path, "--output-dir", swiftDirectory.path])
            try #require(genSwift.status == 0, "\(context), catalog \(catalog.number): \(genSwift.errors)")
            swiftFiles += try FileManager.default.contentsOfDirectory(
                at: swiftDirectory, includingPropertiesForKeys: nil)
            let installingFile = directory.appendingPathComponent("installing/catalog\(catalog.number).swift")
            try FileManager.default.createDirectory(
                at: installingFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            let genInstalling = try ErrcatRunner.run([
                "gen", "swift", "--installing", file.path, "--output", installingFile.path,
            ])
            try #require(genInstalling.status == 0, "\(context), catalog \(catalog.number): \(genInstalling.errors)")
            installingFiles.append(installingFile)
        }
        try await checkC(batch, sources: cSources, directory: directory, context: context)
        try await checkSwift(batch, files: swiftFiles, directory: directory, context: context)
        try await checkInstalling(batch, files: installingFiles, directory: directory, context: context)
    }

    /// The catalog with its poison name must be rejected with exactly one problem, at that name.
    static func checkPoisoned(_ catalog: RandomCatalog, directory: URL, context: String) throws {
        guard let poisoned = catalog.poisoned else { return }
        let file = directory.appendingPathComponent("poisoned\(catalog.number).json")
        try Data(poisoned.text.utf8).write(to: file)
        let check = try ErrcatRunner.run(["check", file.path])
        let problems = check.errorLines.filter { $0.contains(": error: ") }
        #expect(check.status == 1, "\(context): poisoned \(catalog.number) (\(poisoned.name)) was accepted")
        #expect(problems.count == 1, "\(context): poisoned \(catalog.number): \(check.errors)")
        #expect(
            problems.first?.hasPrefix("\(file.path):\(poisoned.location): error: ") == true,
            "\(context): poisoned \(catalog.number) (\(poisoned.name) at \(poisoned.location)): \(check.errors)")
    }

    // MARK: - C

    static func hexLiteral(_ text: String) -> String {
        text.utf8.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
            .joined()
    }

    static func checkC(_ batch: [RandomCatalog], sources: [URL], directory: URL, context: String) async throws {
        var main = """
            #include <stdio.h>
            #include "CErrCore.h"

            static void hex(const char *text) {
                if (!text) { fputs("-", stdout); return; }
                for (const unsigned char *p = (const unsigned char *)text; *p; p++) printf("%02x", *p);
            }

            static int dump(const char *label, const errcore_table *t, const int64_t *probes, size_t count) {
                errcore_diag d;
                if (errcore_validate(t, &d) != ERRCORE_OK) { printf("%s invalid %d\\n", label, (int)d.status); return 1; }
                for (size_t id = 1; id <= t->module_count; id++) {
                    printf("%s module %u ", label, (unsigned)id);
                    hex(errcore_module_name(t, (uint16_t)id)); putchar(' ');
                    hex(errcore_module_title(t, (uint16_t)id, ERRCORE_LANG_EN)); putchar(' ');
                    hex(errcore_module_title(t, (uint16_t)id, ERRCORE_LANG_ZH_HANS)); putchar('\\n');
                }
                for (size_t i = 0; i < count; i++) {
                    errcore_class c = errcore_classify(t, probes[i]);
                    uint32_t entry = errcore_class_entry(c);
                    printf("%s %lld %d %u %u %d ", label, (long long)probes[i], (int)errcore_class_tier(c),
                           (unsigned)errcore_class_module(c), (unsigned)errcore_class_flags(c), errcore_class_is_exact(c) ? 1 : 0);
                    if (entry == ERRCORE_NO_ENTRY) { fputs("- - -\\n", stdout); continue; }
                    hex(errcore_entry_name(t, entry)); putchar(' ');
                    hex(errcore_entry_message(t, entry, ERRCORE_LANG_EN)); putchar(' ');
                    hex(errcore_entry_message(t, entry, ERRCORE_LANG_ZH_HANS)); putchar('\\n');
                }
                return 0;
            }

            /* A string probe: namespace and string as bytes with their lengths. */
            typedef struct { const char *space; size_t space_length; const char *code; size_t code_length; } string_probe;

            static int dump_strings(const char *label, const errcore_table *t, const errcore_string_table *s,
                                    const string_probe *probes, size_t count) {
                errcore_diag d;
                if (errcore_string_validate(t, s, &d) != ERRCORE_OK) {
                    printf("%s strings invalid %d\\n", label, (int)d.status);
                    return 1;
                }
                for (size_t i = 0; i < count; i++) {
                    errcore_class c = errcore_classify_string(s, probes[i].space, probes[i].space_length, probes[i].code,
                                                              probes[i].code_length);
                    uint32_t entry = errcore_class_entry(c);
                    printf("%s s %u %d %u %d ", label, (unsigned)i, (int)errcore_class_tier(c), (unsigned)errcore_class_module(c),
                           errcore_class_is_exact(c) ? 1 : 0);
                    if (entry == ERRCORE_NO_ENTRY) { fputs("-\\n", stdout); continue; }
                    hex(errcore_entry_name(t, entry)); putchar('\\n');
                }
                return 0;
            }

            """
        /// `text`'s UTF-8 bytes as a C string literal of \x escapes, and their count.
        func cBytes(_ text: String) -> (literal: String, count: Int) {
            let bytes = Array(text.utf8)
            return (
                "\""
                    + bytes.map { "\\x" + (String($0, radix: 16).count == 1 ? "0" : "") + String($0, radix: 16) }
                    .joined() + "\"", bytes.count
            )
        }
        var expected = ""
        var calls = ""
        for catalog in batch {
            let definition = catalog.definition
            let name = definition.name
            let probes = catalog.probes
            main += "const errcore_table *errcore_\(name)_table(void);\n"
            main += "static const int64_t probes_\(name)[\(probes.count)] = {\n"
            for code in probes {
                main += "    \(code == Int64.min ? "INT64_MIN" : "INT64_C(\(code))"),\n"
            }
            main += "};\n"
            calls += "    failed |= dump(\"\(name)\", errcore_\(name)_table(), probes_\(name), \(probes.count));\n"
            if !catalog.stringProbes.isEmpty {
                main += "const errcore_string_table *errcore_\(name)_strings(void);\n"
                main += "static const string_probe strings_\(name)[\(catalog.stringProbes.count)] = {\n"
                for probe in catalog.stringProbes {
                    let space = cBytes(probe.namespace ?? "")
                    let code = cBytes(probe.string)
                    main += "    {\(space.literal), \(space.count), \(code.literal), \(code.count)},\n"
                }
                main += "};\n"
                calls +=
                    "    failed |= dump_strings(\"\(name)\", errcore_\(name)_table(), errcore_\(name)_strings(), strings_\(name), \(catalog.stringProbes.count));\n"
            }
            for (offset, module) in definition.modules.enumerated() {
                let zh = module.title.simplifiedChinese ?? module.title.english
                expected +=
                    "\(name) module \(offset + 1) \(hexLiteral(module.name)) \(hexLiteral(module.title.english)) \(hexLiteral(zh))\n"
            }
            for code in probes {
                let answer = LinearReference.classify(code, in: definition)
                expected +=
                    "\(name) \(code) \(answer.tier) \(answer.module) \(answer.flags) \(answer.entry == nil ? 0 : 1) "
                if let entry = answer.entry {
                    let zh = entry.message.simplifiedChinese ?? entry.message.english
                    expected += "\(hexLiteral(entry.name)) \(hexLiteral(entry.message.english)) \(hexLiteral(zh))\n"
                } else {
                    expected += "- - -\n"
                }
            }
            for (index, probe) in catalog.stringProbes.enumerated() {
                let answer = LinearReference.classify(string: probe.string, namespace: probe.namespace, in: definition)
                expected +=
                    "\(name) s \(index) \(answer.tier) \(answer.module) \(answer.entry == nil ? 0 : 1) \(answer.entry.map { hexLiteral($0.name) } ?? "-")\n"
            }
        }
        main += "\nint main(void) {\n    int failed = 0;\n" + calls + "    return failed;\n}\n"
        let mainFile = directory.appendingPathComponent("main.c")
        try Data(main.utf8).write(to: mainFile)
        for compiler in GeneratedSourceToolchain.cCompilers {
            let name = URL(fileURLWithPath: compiler).lastPathComponent
            let binary = directory.appendingPathComponent("classify-\(name)")
            let build = try await GeneratedSourceToolchain.compileC(
                compiler, sources: sources + [mainFile], binary: binary, in: directory)
            try #require(build.succeeded, "\(context): \(name): \(build.errors)")
            let run = try await GeneratedSourceToolchain.run(binary.path, [], in: directory)
            #expect(run.status == 0, "\(context): \(name)")
            if run.output != expected {
                let got = run.output.split(separator: "\n")
                let want = expected.split(separator: "\n")
                let first = firstDifference(got, want)
                Issue.record(
                    "\(context): \(name): line \(first) differs: got \(first < got.count ? String(got[first]) : "nothing"), want \(first < want.count ? String(want[first]) : "nothing")"
                )
            }
        }
    }

    // MARK: - Swift

    static func checkSwift(_ batch: [RandomCatalog], files: [URL], directory: URL, context: String) async throws {
        let sources = try GeneratedSourceToolchain.importing(files, into: directory.appendingPathComponent("swift"))
        var main = """
            import SwiftErr

            func hex(_ text: String) -> String {
                let digits = Array("0123456789abcdef")
                var out = ""
                for byte in text.utf8 {
                    out.append(digits[Int(byte >> 4)])
                    out.append(digits[Int(byte & 15)])
                }
                return out
            }

            func dump<M: ModuleCode>(_ type: M.Type, _ label: String, unlisted: Int64) {
                let title = M.moduleTitle
                print(label, hex(M.moduleName), hex(title.english), hex(title.simplifiedChinese ?? "-"),
                      M.codeRanges.map { "\\($0.lowerBound)...\\($0.upperBound)" }.joined(separator: ","),
                      M.stringNamespaces.map(hex).joined(separator: ","))
                for value in M.listedCases {
                    let message = value.message
                    print(label, value.code, hex(value.name), value.flags.rawValue, hex(message.english),
                          hex(message.simplifiedChinese ?? "-"), value.isUnrecognised, M(code: value.code) == value,
                          value.stringCode.map(hex) ?? "none", value.stringNamespace.map(hex) ?? "none")
                }
                let other = M.unrecognised(unlisted)
                print(label, "other", other.code, other.name, other.flags.rawValue, other.isUnrecognised,
                      other.message == M.unrecognisedMessage)
            }

            """
        var expected = ""
        for catalog in batch {
            let definition = catalog.definition
            for (offset, module) in definition.modules.enumerated() {
                let type = GeneratedNames.typeName(module: module.name)
                let label = "\(definition.name).\(offset + 1)"
                let unlisted = catalog.unlisted[offset]
                main +=
                    "dump(\(type).self, \"\(label)\", unlisted: \(unlisted == Int64.min ? "Int64.min" : String(unlisted)))\n"
                let ranges = module.ranges.map { "\($0.lowerBound)...\($0.upperBound)" }.joined(separator: ",")
                expected +=
                    "\(label) \(hexLiteral(module.name)) \(hexLiteral(module.title.english)) \(hexLiteral(module.title.simplifiedChinese ?? "-")) \(ranges) \(module.namespaces.map(hexLiteral).joined(separator: ","))\n"
                for entry in module.codes {
                    expected +=
                        "\(label) \(entry.code) \(hexLiteral(entry.name)) \(entry.flags.rawValue) \(hexLiteral(entry.message.english)) \(hexLiteral(entry.message.simplifiedChinese ?? "-")) false true \(entry.string.map(hexLiteral) ?? "none") \(entry.namespace.map(hexLiteral) ?? "none")\n"
                }
                expected += "\(label) other \(unlisted) other 0 true true\n"
            }
            for entry in definition.base {
                main += "print(\"\(definition.name) base\", BaseCode.`\(entry.name)`.rawValue)\n"
                expected += "\(definition.name) base \(entry.code)\n"
            }
        }
        let mainFile = directory.appendingPathComponent("swift/main.swift")
        try Data(main.utf8).write(to: mainFile)
        let binary = directory.appendingPathComponent("enums")
        let build = try await GeneratedSourceToolchain.buildSwift(sources + [mainFile], binary: binary, in: directory)
        try #require(build.succeeded, "\(context): swiftc: \(build.errors)")
        let run = try await GeneratedSourceToolchain.run(binary.path, [], in: directory)
        #expect(run.status == 0, "\(context): \(run.errors)")
        if run.output != expected {
            let got = run.output.split(separator: "\n")
            let want = expected.split(separator: "\n")
            let first = firstDifference(got, want)
            Issue.record(
                "\(context): Swift line \(first) differs: got \(first < got.count ? String(got[first]) : "nothing"), want \(first < want.count ? String(want[first]) : "nothing")"
            )
        }
    }
}

extension GeneratedSourcePropertyTests {
    // MARK: - Swift, the plugin's form

    /// The `--installing` form of every catalog of the batch, compiled into one program (as it is,
    /// with its own `import SwiftErr`) and run in a process of its own: each catalog type's
    /// definition must be the catalog's; the first catalog, installed, must classify every probe
    /// code through each of its module enums as a linear scan over the catalog says; a module of a
    /// second catalog must then report `.catalogInUse` for every code.
    static func checkInstalling(_ batch: [RandomCatalog], files: [URL], directory: URL, context: String) async throws {
        var main = """
            import SwiftErr

            func hex(_ text: String) -> String {
                let digits = Array("0123456789abcdef")
                var out = ""
                for byte in text.utf8 {
                    out.append(digits[Int(byte >> 4)])
                    out.append(digits[Int(byte & 15)])
                }
                return out
            }

            func entry(_ entry: EntryDefinition) -> String {
                "\\(entry.code) \\(hex(entry.name)) \\(entry.flags.rawValue) \\(hex(entry.message.english)) \\(hex(entry.message.simplifiedChinese ?? "-")) \\(entry.string.map(hex) ?? "none") \\(entry.namespace.map(hex) ?? "none")"
            }

            func dump(_ definition: CatalogDefinition) {
                print("catalog", hex(definition.name), entry(definition.success))
                for base in definition.base { print("base", entry(base)) }
                for module in definition.modules {
                    print("module", hex(module.name), hex(module.title.english), hex(module.title.simplifiedChinese ?? "-"),
                          module.ranges.map { "\\($0.lowerBound)...\\($0.upperBound)" }.joined(separator: ","),
                          module.namespaces.map(hex).joined(separator: ","))
                    for code in module.codes { print("code", entry(code)) }
                }
            }

            func outcome<M: ModuleCode>(_ outcome: CodeOutcome<M>) -> String {
                switch outcome {
                case .success: return "success"
                case .base(let code): return "base \\(code.rawValue)"
                case .module(let value): return value.isUnrecognised ? "other \\(value.code)" : "module \\(value.code)"
                case .unexpected(let code): return "unexpected \\(code)"
                case .invalidCatalog(let failure): return "invalid \\(failure.status)"
                }
            }

            func classify<M: ModuleCode>(_ type: M.Type, _ label: String, _ codes: [Int64]) {
                for code in codes { print(label, code, outcome(M.classify(code))) }
            }

            """
        var expected = ""
        func entry(_ entry: EntryDefinition) -> String {
            "\(entry.code) \(hexLiteral(entry.name)) \(entry.flags.rawValue) \(hexLiteral(entry.message.english)) \(hexLiteral(entry.message.simplifiedChinese ?? "-")) \(entry.string.map(hexLiteral) ?? "none") \(entry.namespace.map(hexLiteral) ?? "none")"
        }
        func literal(_ code: Int64) -> String { code == Int64.min ? "Int64.min" : String(code) }
        for catalog in batch {
            let definition = catalog.definition
            main += "dump(\(GeneratedNames.catalogTypeName(catalog: definition.name)).definition)\n"
            expected += "catalog \(hexLiteral(definition.name)) \(entry(definition.success))\n"
            for base in definition.base { expected += "base \(entry(base))\n" }
            for module in definition.modules {
                let ranges = module.ranges.map { "\($0.lowerBound)...\($0.upperBound)" }.joined(separator: ",")
                expected +=
                    "module \(hexLiteral(module.name)) \(hexLiteral(module.title.english)) \(hexLiteral(module.title.simplifiedChinese ?? "-")) \(ranges) \(module.namespaces.map(hexLiteral).joined(separator: ","))\n"
                for code in module.codes { expected += "code \(entry(code))\n" }
            }
        }
        let first = batch[0].definition
        main += "print(\"installed\", hex(try \(GeneratedNames.catalogTypeName(catalog: first.name)).install().name))\n"
        expected += "installed \(hexLiteral(first.name))\n"
        let probes = batch[0].probes
        main += "let probes: [Int64] = [\(probes.map(literal).joined(separator: ", "))]\n"
        for (offset, module) in first.modules.enumerated() {
            let label = "\(first.name).\(offset + 1)"
            main += "classify(\(GeneratedNames.typeName(module: module.name)).self, \"\(label)\", probes)\n"
            for code in probes {
                let answer = LinearReference.classify(code, in: first)
                let what: String
                switch answer.tier {
                case 1: what = "success"
                case 2: what = "base \(code)"
                case 3 where answer.module == offset + 1:
                    what = answer.entry == nil ? "other \(code)" : "module \(code)"
                default: what = "unexpected \(code)"
                }
                expected += "\(label) \(code) \(what)\n"
            }
        }
        if batch.count > 1, let module = batch[1].definition.modules.first {
            let label = "\(batch[1].definition.name).1"
            main += "classify(\(GeneratedNames.typeName(module: module.name)).self, \"\(label)\", probes)\n"
            for code in probes { expected += "\(label) \(code) invalid catalogInUse\n" }
        }
        let mainFile = directory.appendingPathComponent("installing/main.swift")
        try Data(main.utf8).write(to: mainFile)
        let binary = directory.appendingPathComponent("installing-program")
        let build = try await GeneratedSourceToolchain.buildSwift(files + [mainFile], binary: binary, in: directory)
        try #require(build.succeeded, "\(context): swiftc (installing form): \(build.errors)")
        let run = try await GeneratedSourceToolchain.run(binary.path, [], in: directory)
        #expect(run.status == 0, "\(context): \(run.errors)")
        if run.output != expected {
            let got = run.output.split(separator: "\n")
            let want = expected.split(separator: "\n")
            let first = firstDifference(got, want)
            Issue.record(
                "\(context): installing form, line \(first) differs: got \(first < got.count ? String(got[first]) : "nothing"), want \(first < want.count ? String(want[first]) : "nothing")"
            )
        }
    }
}

/// The first index where two lists of lines differ (the shorter length when one is a prefix).
func firstDifference(_ got: [Substring], _ want: [Substring]) -> Int {
    for index in 0..<min(got.count, want.count) where got[index] != want[index] { return index }
    return min(got.count, want.count)
}

/// A linear scan over a definition: what a code is by the catalog (as SwiftErrTesting's
/// ReferenceClassifier, which this test target does not depend on).
enum LinearReference {
    struct Answer {
        var tier: Int
        var module: Int
        var flags: UInt8
        var entry: EntryDefinition?
    }

    static func classify(_ code: Int64, in definition: CatalogDefinition) -> Answer {
        if code == definition.success.code {
            return Answer(tier: 1, module: 0, flags: definition.success.flags.rawValue, entry: definition.success)
        }
        for entry in definition.base where entry.code == code {
            return Answer(tier: 2, module: 0, flags: entry.flags.rawValue, entry: entry)
        }
        for (offset, module) in definition.modules.enumerated() {
            for entry in module.codes where entry.code == code {
                return Answer(tier: 3, module: offset + 1, flags: entry.flags.rawValue, entry: entry)
            }
            if module.ranges.contains(where: { $0.contains(code) }) {
                return Answer(tier: 3, module: offset + 1, flags: 0, entry: nil)
            }
        }
        return Answer(tier: 0, module: 0, flags: 0, entry: nil)
    }

    /// A string code in a namespace (`nil`: the catalog's own), bytes compared with bytes: the
    /// entry that lists it, else the module owning the namespace (unrecognised), else unknown.
    static func classify(string: String, namespace: String?, in definition: CatalogDefinition) -> Answer {
        let bytes = Array(string.utf8)
        let space = Array((namespace ?? "").utf8)
        guard !bytes.isEmpty && bytes.count <= 0xFFFF && space.count <= 0xFFFF else {
            return Answer(tier: 0, module: 0, flags: 0, entry: nil)  // no string code is empty or that long
        }
        for entry in [definition.success] + definition.base + definition.modules.flatMap(\.codes)
        where entry.string.map({ Array($0.utf8) }) == bytes && Array((entry.namespace ?? "").utf8) == space {
            return classify(entry.code, in: definition)
        }
        if !space.isEmpty,
            let index = definition.modules.firstIndex(where: { $0.namespaces.contains { Array($0.utf8) == space } })
        {
            return Answer(tier: 3, module: index + 1, flags: 0, entry: nil)
        }
        return Answer(tier: 0, module: 0, flags: 0, entry: nil)
    }
}

/// One random catalog: its file text, its definition, the codes to probe, a code of each
/// module's ranges that the module does not list, and a variant with one reserved name.
struct RandomCatalog {
    var number: Int
    var text: String
    var definition: CatalogDefinition
    var probes: [Int64]
    var unlisted: [Int64]
    var poisoned: (text: String, name: String, location: String)?
    /// (namespace, string) pairs to classify as string codes: each listed one, near misses,
    /// strings in a module's namespace that it does not list, and strangers; empty for a catalog
    /// without string codes.
    var stringProbes: [(namespace: String?, string: String)] = []
}

/// Makes random hostile catalogs that `check` must accept; names are unique across one
/// generator's catalogs where the compiled batch needs it (catalog names, base names, module types).
struct HostileCatalogGenerator {
    private var random: SplitMix64
    private var usedCatalogNames: Set<String> = []
    private var usedBaseNames: Set<String> = []
    private var usedTypeNames: Set<String> = []

    /// Whether catalogs may carry string codes and namespaces (format 3).
    private let stringCodes: Bool

    /// A generator from `seed`; `stringCodes` gives most catalogs hostile string codes in hostile
    /// namespaces (without it, the catalogs are those of earlier versions of this generator).
    init(seed: UInt64, stringCodes: Bool = false) {
        random = SplitMix64(seed: seed)
        self.stringCodes = stringCodes
    }

    /// Identifiers that are fine as names: Swift keywords (written in backticks), C keywords,
    /// names of other modules' members, underscores and digits.
    static let words: [String] = [
        "default", "class", "struct", "enum", "func", "let", "var", "if", "else", "switch", "case", "in", "is", "as",
        "nil", "true", "false", "try", "throw", "throws", "return", "while", "for", "repeat", "guard", "defer", "do",
        "import", "static", "public", "private", "internal", "open", "operator", "inout", "where", "super", "Any",
        "deinit", "subscript", "extension", "protocol", "typealias", "associatedtype", "self", "int", "char", "long",
        "unsigned", "void", "sizeof", "goto", "register", "volatile", "errcore_table", "INT64_MIN", "NULL", "main",
        "account", "studyGroup", "x", "_x", "__", "a1", "A", "value", "rawValues", "codes", "names",
        "PWNED", "Code", "module_", "other_", "Other", "Self_", "sendable", "hashable",
    ]

    /// Pieces of titles and messages that try to leave a comment or a literal.
    static let fragments: [String] = [
        "\r\n", "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}", "\u{B}", "\u{C}", "\t", "\\", "\\\n", "\\\r\n",
        "*/", "*/\u{301}", "/*", "//", "///", "*\\\r\n/", "??/", "??=", "?\n?/", "\"", "\\(x)", "#\"", "\"#", "\"\"\"",
        "`",
        "\u{202E}", "\u{202D}", "\u{2066}", "\u{2069}", "\u{200B}", "\u{200F}", "\u{FEFF}", "\u{E000}", "\u{FFFF}",
        "\u{1B}[31m", "\u{7F}", "\u{1}", "\u{A0}", "\u{3000}", "é", "e\u{301}", "中文", "标签", "🙂", "\u{10FFFF}",
        " public static let PWNED = 42 ", " int PWNED = 42; ", "#if false", "}", "{", ")", "%s%n",
    ]

    /// The column of the value of the first `"name": ` member of `line`.
    static func nameColumn(_ line: String) -> Int {
        let member = line.range(of: "\"name\": ")!
        return line[..<member.lowerBound].unicodeScalars.count + 9
    }

    private mutating func below(_ bound: Int) -> Int { Int(random.below(UInt64(bound))) }
    private mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    private mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    private mutating func text() -> String {
        var out = ""
        for _ in 0..<(1 + below(5)) {
            out += chance(60) ? pick(Self.fragments) : pick(Self.words)
        }
        return out
    }

    private static func unique(_ base: String, in used: inout Set<String>, key: (String) -> String) -> String {
        var name = base
        var suffix = 2
        while used.contains(key(name)) {
            name = "\(base)\(suffix)"
            suffix += 1
        }
        used.insert(key(name))
        return name
    }

    private mutating func identifier(excluding reserved: (String) -> Bool) -> String {
        while true {
            let word = pick(Self.words)
            if !reserved(word) { return word }
        }
    }

    private mutating func code() -> Int64 {
        switch below(6) {
        case 0: return Int64.min + Int64(below(4))
        case 1: return Int64.max - Int64(below(4))
        case 2: return Int64(below(41)) - 20
        case 3: return Int64(bitPattern: random.next())
        case 4: return 11_000_000 + Int64(below(300_000))
        default: return -Int64(below(1_000_000_000))
        }
    }

    /// Disjoint ranges sorted by first code: from 2n distinct sorted codes, paired in order.
    private mutating func ranges(count: Int, success: Int64) -> [ClosedRange<Int64>] {
        if chance(15) && success != Int64.min && success != Int64.max {
            // Everything but the success code, split once more at 0 when there is room.
            var bounds: [ClosedRange<Int64>] = [Int64.min...(success - 1), (success + 1)...Int64.max]
            if success < -1 {
                bounds = [Int64.min...(success - 1), (success + 1)...(-1), 0...Int64.max]
            } else if success > 0 {
                bounds = [Int64.min...(-1), 0...(success - 1), (success + 1)...Int64.max]
            }
            return bounds
        }
        var points: Set<Int64> = []
        while points.count < 2 * count {
            let value = code()
            if value != success { points.insert(value) }
        }
        let sorted = points.sorted()
        var result: [ClosedRange<Int64>] = []
        for index in stride(from: 0, to: sorted.count, by: 2) {
            let range = sorted[index]...sorted[index + 1]
            // The success code must stay outside every range.
            if range.contains(success) {
                if success > range.lowerBound { result.append(range.lowerBound...(success - 1)) }
                if success < range.upperBound { result.append((success + 1)...range.upperBound) }
            } else {
                result.append(range)
            }
        }
        return result
    }

    private mutating func flags() -> [String] {
        ["retryable", "reauthenticate", "showUser", "fatal", "app4", "app5", "app6", "app7"].filter { _ in chance(20) }
    }

    private mutating func localized() -> (String, String?) {
        (text(), chance(50) ? text() : nil)
    }

    /// Catalog `number`.
    mutating func catalog(number: Int) -> RandomCatalog {
        let catalogName = Self.unique(
            identifier(excluding: { $0 == "default" || !GeneratedNames.isIdentifier($0) }), in: &usedCatalogNames,
            key: { $0 })
        let success = chance(50) ? Int64(below(3)) - 1 : code()
        let manyModules = chance(15)
        let moduleCount = manyModules ? 40 + below(120) : below(7)
        let all = ranges(count: max(1, manyModules ? moduleCount : moduleCount + below(4)), success: success)
        let modulesUsed = min(moduleCount, all.count)
        var moduleRanges = [[ClosedRange<Int64>]](repeating: [], count: modulesUsed)
        for (index, range) in all.enumerated() where modulesUsed > 0 {
            moduleRanges[index < modulesUsed ? index : below(modulesUsed)].append(range)
        }
        var used: Set<Int64> = [success]
        func outside(_ value: Int64) -> Bool { !all.contains { $0.contains(value) } && !used.contains(value) }
        var base: [(Int64, String, [String], (String, String?))] = []
        var scopeNames: Set<String> = ["ok"]
        for _ in 0..<below(5) {
            var value = code()
            var attempts = 0
            while !outside(value) && attempts < 50 {
                value = code()
                attempts += 1
            }
            guard outside(value) else { break }
            used.insert(value)
            let raw = identifier(excluding: { GeneratedNames.baseNameProblem($0) != nil })
            let name = Self.unique(raw, in: &usedBaseNames, key: { $0 })
            scopeNames.insert(name)
            base.append((value, name, flags(), localized()))
        }
        var modules:
            [(String, [ClosedRange<Int64>], (String, String?)?, [(Int64, String, [String], (String, String?))])] = []
        var unlisted: [Int64] = []
        for ranges in moduleRanges {
            let raw = identifier(excluding: {
                GeneratedNames.reservedTypeNames[GeneratedNames.typeName(module: $0)] != nil
            })
            let name = Self.unique(raw, in: &usedTypeNames, key: { GeneratedNames.typeName(module: $0).lowercased() })
            var codes: [(Int64, String, [String], (String, String?))] = []
            var caseNames: Set<String> = []
            let wanted = manyModules ? below(2) : below(7)
            for _ in 0..<wanted {
                let range = pick(ranges)
                let span = UInt64(bitPattern: range.upperBound &- range.lowerBound)
                let offset = span == UInt64.max ? random.next() : random.next() % (span + 1)
                let candidates = [
                    range.lowerBound, range.upperBound, range.lowerBound &+ 1,
                    range.lowerBound &+ Int64(bitPattern: offset),
                ]
                let value = pick(candidates)
                guard range.contains(value), !used.contains(value) else { continue }
                used.insert(value)
                let raw = identifier(excluding: { GeneratedNames.caseNameProblem($0) != nil })
                let caseName = Self.unique(raw, in: &caseNames, key: { $0 })
                codes.append((value, caseName, flags(), localized()))
            }
            // A code of the module's ranges that it does not list (for the unrecognised case).
            var spare = ranges[0].lowerBound
            for range in ranges {
                for candidate in [range.lowerBound, range.upperBound, range.lowerBound &+ 1]
                where range.contains(candidate) && !used.contains(candidate) {
                    spare = candidate
                }
            }
            unlisted.append(spare)
            modules.append((name, ranges, chance(70) ? localized() : nil, codes))
        }

        // String codes (format 3), in most catalogs: hostile strings for some entries, in the
        // catalog's own namespace or in a hostile namespace of the entry's module; unique in
        // their namespace.
        let withStrings = stringCodes && chance(60)
        var baseStrings = [String?](repeating: nil, count: base.count)
        var moduleNamespaces = [String?](repeating: nil, count: modules.count)
        var moduleStrings = modules.map { [String?](repeating: nil, count: $0.3.count) }
        if withStrings {
            var ownStrings: Set<String> = []
            var namespaces: Set<String> = []
            for index in modules.indices where chance(60) {
                moduleNamespaces[index] = Self.unique(text(), in: &namespaces, key: { $0 })
            }
            for index in base.indices where chance(60) {
                baseStrings[index] = Self.unique(text(), in: &ownStrings, key: { $0 })
            }
            for (index, module) in modules.enumerated() {
                var inNamespace: Set<String> = []
                for entry in module.3.indices where chance(60) {
                    let raw = text()
                    moduleStrings[index][entry] =
                        moduleNamespaces[index] == nil
                        ? Self.unique(raw, in: &ownStrings, key: { $0 })
                        : Self.unique(raw, in: &inNamespace, key: { $0 })
                }
            }
        }

        // The file: one member per line, LF or CRLF line ends, members in a varying order.
        let newline = chance(30) ? "\r\n" : "\n"
        func json(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                default:
                    if scalar.value < 0x20 {
                        let digits = String(scalar.value, radix: 16)
                        out += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
                    } else if scalar.value >= 0x80 && chance(10) && scalar.value <= 0xFFFF {
                        let digits = String(scalar.value, radix: 16)
                        out += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
            }
            return out + "\""
        }
        func message(_ text: (String, String?)) -> String {
            "{\"en\": \(json(text.0))" + (text.1.map { ", \"zh-Hans\": \(json($0))" } ?? "") + "}"
        }
        func entry(_ item: (Int64, String, [String], (String, String?)), string: String? = nil) -> String {
            let flagList = item.2.map { "\"\($0)\"" }.joined(separator: ", ")
            let stringMember = string.map { ", \"string\": \(json($0))" } ?? ""
            return
                "{\"code\": \(item.0), \"name\": \(json(item.1))\(stringMember)\(item.2.isEmpty ? "" : ", \"flags\": [\(flagList)]"), \"message\": \(message(item.3))}"
        }
        let successEntry = (success, "ok", flags(), localized())
        var lines = [
            "{", "\"format\": \"swifterr-catalog/\(withStrings ? 3 : 1)\",", "\"name\": \(json(catalogName)),",
        ]
        if withStrings { lines.append("\"languages\": [\"en\", \"zh-Hans\"],") }
        lines += [
            "\"success\": \(entry(successEntry)),", "\"base\": [",
        ]
        lines += base.enumerated().map {
            entry($0.element, string: baseStrings[$0.offset]) + ($0.offset == base.count - 1 ? "" : ",")
        }
        lines.append("],")
        lines.append("\"modules\": [")
        for (index, module) in modules.enumerated() {
            let title = module.2.map { ", \"title\": \(message($0))" } ?? ""
            let ranges = module.1.map { "[\($0.lowerBound), \($0.upperBound)]" }.joined(separator: ", ")
            let namespaces = moduleNamespaces[index].map { ", \"namespaces\": [\(json($0))]" } ?? ""
            lines.append(
                "{\"name\": \(json(module.0))\(title), \"ranges\": [\(ranges)]\(namespaces), \"codes\": [")
            lines += module.3.enumerated().map {
                entry($0.element, string: moduleStrings[index][$0.offset])
                    + ($0.offset == module.3.count - 1 ? "" : ",")
            }
            lines.append("]}" + (index == modules.count - 1 ? "" : ","))
        }
        lines.append("]")
        lines.append("}")
        let text = lines.joined(separator: newline) + newline

        func definitionEntry(_ item: (Int64, String, [String], (String, String?))) -> EntryDefinition {
            var flags = CodeFlags()
            for name in item.2 { flags.insert(CodeFlags(name: name)!) }
            return EntryDefinition(
                code: item.0, name: item.1, flags: flags,
                message: LocalizedText(english: item.3.0, simplifiedChinese: item.3.1))
        }
        let definition = CatalogDefinition(
            name: catalogName, success: definitionEntry(successEntry),
            base: base.enumerated().map { index, item in
                var entry = definitionEntry(item)
                entry.string = baseStrings[index]
                return entry
            },
            modules: modules.enumerated().map { index, module in
                var definition = ModuleDefinition(
                    name: module.0,
                    title: module.2.map { LocalizedText(english: $0.0, simplifiedChinese: $0.1) }
                        ?? LocalizedText(english: module.0),
                    ranges: module.1,
                    codes: module.3.enumerated().map { offset, item in
                        var entry = definitionEntry(item)
                        entry.string = moduleStrings[index][offset]
                        entry.namespace = entry.string == nil ? nil : moduleNamespaces[index]
                        return entry
                    })
                definition.namespaces = moduleNamespaces[index].map { [$0] } ?? []
                return definition
            })
        var stringProbes: [(namespace: String?, string: String)] = []
        // gen c writes a string table when the catalog has a string code or a namespace.
        if baseStrings.contains(where: { $0 != nil }) || moduleNamespaces.contains(where: { $0 != nil })
            || moduleStrings.joined().contains(where: { $0 != nil })
        {
            for entry in definition.base + definition.modules.flatMap(\.codes) {
                guard let string = entry.string else { continue }
                stringProbes += [
                    (entry.namespace, string), (entry.namespace, string + "x"),
                    (entry.namespace, String(string.unicodeScalars.dropLast())),
                    (entry.namespace == nil ? moduleNamespaces.compactMap { $0 }.first : nil, string),
                ]
            }
            for namespace in moduleNamespaces.compactMap({ $0 }) {
                stringProbes += [(namespace, "unlisted\u{1}"), (namespace + "x", "unlisted")]
            }
            stringProbes += [(nil, "not listed \u{2028}"), (nil, String(repeating: "*/", count: 40))]
        }
        var probes: [Int64] = [
            Int64.min, Int64.min + 1, -1, 0, 1, Int64.max - 1, Int64.max, success, success &- 1, success &+ 1,
        ]
        for item in base { probes += [item.0, item.0 &- 1, item.0 &+ 1] }
        for module in modules {
            for range in module.1 {
                probes += [range.lowerBound, range.upperBound, range.lowerBound &- 1, range.upperBound &+ 1]
            }
            for item in module.3 { probes += [item.0, item.0 &- 1, item.0 &+ 1] }
        }
        for _ in 0..<20 { probes.append(code()) }

        // The poisoned variant: one reserved name added where the check must point at it.
        var poisoned: (String, String, String)? = nil
        if chance(40) {
            let kind = below(4)
            let poison: String
            var poisonedLines = lines
            switch kind {
            case 0 where !modules.isEmpty && !modules[0].3.isEmpty:
                poison = pick([
                    "_", "Self", "code", "name", "message", "other", "moduleName", "LocalizedText", "init", "hash",
                ])
                let line = poisonedLines.firstIndex { $0.hasPrefix("{\"name\": \(json(modules[0].0))") }! + 1
                poisonedLines[line] = poisonedLines[line].replacingOccurrences(
                    of: "\"name\": \(json(modules[0].3[0].1))", with: "\"name\": \(json(poison))")
                poisoned = (
                    poisonedLines.joined(separator: newline) + newline, poison,
                    "\(line + 1):\(Self.nameColumn(poisonedLines[line]))"
                )
            case 1 where !base.isEmpty:
                poison = pick(["rawValue", "BaseCode", "Protocol", "Type", "_"])
                let line = poisonedLines.firstIndex { $0 == "\"base\": [" }! + 1
                poisonedLines[line] = poisonedLines[line].replacingOccurrences(
                    of: "\"name\": \(json(base[0].1))", with: "\"name\": \(json(poison))")
                poisoned = (
                    poisonedLines.joined(separator: newline) + newline, poison,
                    "\(line + 1):\(Self.nameColumn(poisonedLines[line]))"
                )
            case 2 where !modules.isEmpty:
                poison = pick(["module", "base", "Module"])
                let line = poisonedLines.firstIndex { $0.hasPrefix("{\"name\": \(json(modules[0].0))") }!
                poisonedLines[line] = poisonedLines[line].replacingOccurrences(
                    of: "{\"name\": \(json(modules[0].0))", with: "{\"name\": \(json(poison))")
                poisoned = (poisonedLines.joined(separator: newline) + newline, poison, "\(line + 1):10")
            default:
                poison = pick(["my-catalog", "a b", "1st", "x\u{202E}"])
                let line = poisonedLines.firstIndex { $0.hasPrefix("\"name\": ") }!
                poisonedLines[line] = "\"name\": \(json(poison)),"
                poisoned = (poisonedLines.joined(separator: newline) + newline, poison, "\(line + 1):9")
            }
        }
        return RandomCatalog(
            number: number, text: text, definition: definition, probes: probes, unlisted: unlisted,
            poisoned: poisoned.map { (text: $0.0, name: $0.1, location: $0.2) }, stringProbes: stringProbes)
    }
}
