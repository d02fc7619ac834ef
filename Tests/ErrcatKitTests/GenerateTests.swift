// `errcat gen`: the committed generated sources must equal the generator's output for
// catalog/default.json (drift), generated C must compile cleanly and validate, and no file is
// written twice in one run or over the catalog.

import Foundation
import SwiftErr
import SwiftErrCatalogFile
import SwiftErrDefaultCatalog
import Testing

@Suite("errcat gen")
struct GenerateTests {
    static func committed(_ path: String) throws -> Data {
        try Data(contentsOf: ErrcatRunner.repositoryRoot.appendingPathComponent(path))
    }

    @Test("Sources/CErrDefaultCatalog/default_catalog.c is exactly `errcat gen c catalog/default.json`")
    func cDrift() throws {
        let result = try ErrcatRunner.run(["gen", "c", "catalog/default.json"])
        #expect(result.status == 0, "\(result.errors)")
        let committed = try GenerateTests.committed("Sources/CErrDefaultCatalog/default_catalog.c")
        #expect(
            result.stdout == committed,
            "default_catalog.c drifted from catalog/default.json: run `errcat gen c catalog/default.json --output Sources/CErrDefaultCatalog/default_catalog.c`"
        )
    }

    static let defaultModules: [String] =
        (try? CatalogDefinition(
            json:
                Array(Data(contentsOf: ErrcatRunner.repositoryRoot.appendingPathComponent("catalog/default.json")))))?
        .modules.map(\.name) ?? []

    @Test("Sources/SwiftErrDefaultCatalog/Generated is exactly `errcat gen swift catalog/default.json`")
    func swiftDrift() throws {
        let directory = "Sources/SwiftErrDefaultCatalog/Generated"
        let result = try ErrcatRunner.run([
            "gen", "swift", "catalog/default.json", "--output-dir", directory, "--check",
        ])
        #expect(
            result.status == 0,
            "\(result.errors)\nregenerate: errcat gen swift catalog/default.json --output-dir \(directory)")
        let files = try FileManager.default.contentsOfDirectory(
            atPath: ErrcatRunner.repositoryRoot.appendingPathComponent(directory).path
        ).sorted()
        let expected =
            (["BaseCode+Default"] + Self.defaultModules.map { $0.prefix(1).uppercased() + $0.dropFirst() + "Code" })
            .map { $0 + ".swift" }.sorted()
        #expect(files == expected, "only generated files belong in \(directory)")
    }

    @Test("--module prints one module's enum, the same text as its file")
    func oneModule() throws {
        let result = try ErrcatRunner.run(["gen", "swift", "catalog/default.json", "--module", "studyGroup"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(
            result.stdout
                == (try GenerateTests.committed("Sources/SwiftErrDefaultCatalog/Generated/StudyGroupCode.swift")))
    }

    @Test("the default catalog has the seven modules of the brief")
    func moduleList() {
        #expect(
            GenerateTests.defaultModules == [
                "account", "upload", "membership", "signIn", "subject", "tag", "studyGroup",
            ])
    }

    @Test("--check compares with --output and exits 1 on a difference")
    func checkMode() throws {
        let directory = try ErrcatRunner.temporaryDirectory()
        let output = directory.appendingPathComponent("catalog.c")
        #expect(try ErrcatRunner.run(["gen", "c", "catalog/default.json", "--output", output.path]).status == 0)
        #expect(
            try ErrcatRunner.run(["gen", "c", "catalog/default.json", "--output", output.path, "--check"]).status == 0)
        try Data("/* edited */\n".utf8).write(to: output)
        let drifted = try ErrcatRunner.run(["gen", "c", "catalog/default.json", "--output", output.path, "--check"])
        #expect(drifted.status == 1)
        #expect(drifted.errors.contains("out of date"))
        let swiftDirectory = directory.appendingPathComponent("swift")
        try FileManager.default.createDirectory(at: swiftDirectory, withIntermediateDirectories: true)
        #expect(
            try ErrcatRunner.run(["gen", "swift", "catalog/default.json", "--output-dir", swiftDirectory.path]).status
                == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: swiftDirectory.path).sorted()
        #expect(
            files == [
                "AccountCode.swift", "BaseCode+Default.swift", "MembershipCode.swift", "SignInCode.swift",
                "StudyGroupCode.swift", "SubjectCode.swift", "TagCode.swift", "UploadCode.swift",
            ])
        #expect(
            try ErrcatRunner.run([
                "gen", "swift", "catalog/default.json", "--output-dir", swiftDirectory.path, "--check",
            ]).status == 0)
    }

    @Test("an invalid catalog generates nothing and exits 1")
    func invalidCatalog() throws {
        let file = try ErrcatRunner.temporaryFile(Data(CheckTests.broken.utf8), name: "broken.json")
        let result = try ErrcatRunner.run(["gen", "c", file.path])
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(result.errors.contains("duplicate code 11001"))
    }

    @Test("swift: a module entry named `other` cannot be generated")
    func otherCase() throws {
        let text = String(decoding: try ErrcatRunner.fixture("small-catalog.json"), as: UTF8.self).replacingOccurrences(
            of: "\"name\": \"highest\"", with: "\"name\": \"other\"")
        let file = try ErrcatRunner.temporaryFile(Data(text.utf8), name: "other.json")
        let result = try ErrcatRunner.run(["gen", "swift", file.path])
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(
            result.errors.contains(
                ":18:54: error: the name \"other\" of an entry of module \"big\" is reserved: in the generated Swift enum BigCode it is its fallback case other(_:)"
            ), "\(result.errors)")
    }

    @Test("swift: keywords, escapes and flags of another catalog")
    func swiftSpelling() throws {
        let file = try ErrcatRunner.temporaryFile(try ErrcatRunner.fixture("small-catalog.json"), name: "small.json")
        let result = try ErrcatRunner.run(["gen", "swift", file.path, "--module", "billing"])
        #expect(result.status == 0)
        let text = result.output
        #expect(text.contains("public enum BillingCode: ModuleCode {"))
        #expect(text.contains("case `default`\n"))
        #expect(text.contains("case .`default`: return 500002"))
        #expect(text.contains("case .`default`: return \"default\""))
        #expect(text.hasPrefix("// GENERATED by `errcat gen swift`"))
        #expect(text.contains("case .quotaExceeded: return [.retryable, .fatal]"))
        #expect(text.contains("LocalizedText(english: \"Quota\\nexceeded\\ttab \u{e9} */ end\")"))
        #expect(!text.contains("Catalog/builtIn"), "only the built-in catalog's modules classify through it")
    }

    /// A C compiler on PATH, if any.
    static let compiler: String? = ["/usr/bin/gcc", "/usr/bin/cc", "/usr/bin/clang"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    @Test(
        "generated C for another catalog compiles with -Wall -Wextra -Wpedantic -Werror, validates and classifies",
        .enabled(if: compiler != nil))
    func generatedCCompiles() async throws {
        let compiler = try #require(GenerateTests.compiler)
        let directory = try ErrcatRunner.temporaryDirectory()
        let catalog = directory.appendingPathComponent("small.json")
        try ErrcatRunner.fixture("small-catalog.json").write(to: catalog)
        let source = directory.appendingPathComponent("small_catalog.c")
        #expect(try ErrcatRunner.run(["gen", "c", catalog.path, "--output", source.path]).status == 0)
        let main = directory.appendingPathComponent("main.c")
        try Data(
            """
            #include <stdio.h>
            #include <string.h>
            #include "CErrCore.h"
            const errcore_table *errcore_small_table(void);
            int main(void) {
                const errcore_table *t = errcore_small_table();
                errcore_diag d;
                if (errcore_validate(t, &d) != ERRCORE_OK) { printf("invalid %d\\n", (int)d.status); return 1; }
                errcore_class c = errcore_classify(t, 500001);
                const char *m = errcore_entry_message(t, errcore_class_entry(c), ERRCORE_LANG_EN);
                errcore_class low = errcore_classify(t, INT64_MIN);
                errcore_class base = errcore_classify(t, 401);
                printf("%d %s|%s|%s|%d|%s\\n", (int)errcore_class_tier(c), errcore_entry_name(t, errcore_class_entry(c)), m,
                       errcore_entry_message(t, errcore_class_entry(base), ERRCORE_LANG_EN),
                       (int)errcore_class_flags(low), errcore_entry_message(t, errcore_class_entry(base), ERRCORE_LANG_ZH_HANS));
                return 0;
            }

            """.utf8
        ).write(to: main)
        let root = ErrcatRunner.repositoryRoot
        let coreSources = try FileManager.default.contentsOfDirectory(
            atPath: root.appendingPathComponent("Sources/CErrCore").path
        )
        .filter { $0.hasSuffix(".c") && $0 != "default_catalog.c" }
        .map { root.appendingPathComponent("Sources/CErrCore/\($0)").path }
        let binary = directory.appendingPathComponent("small")
        let compile = try await GeneratedSourceToolchain.run(
            compiler,
            [
                "-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror",
                "-I", root.appendingPathComponent("include").path,
                source.path, main.path,
            ] + coreSources + ["-o", binary.path], in: directory)
        #expect(compile.status == 0, "\(compile.errors)")
        let run = try await GeneratedSourceToolchain.run(binary.path, [], in: directory)
        #expect(run.status == 0)
        let output = run.output
        #expect(output == "3 quotaExceeded|Quota\nexceeded\ttab \u{e9} */ end|Sign in \"again\"\\now??=|16|请重新登录\n")
    }

    @Test(
        "generated C's string table validates and classifies every string code, near miss and stranger as Swift does",
        .enabled(if: compiler != nil))
    func generatedStringTable() async throws {
        let compiler = try #require(GenerateTests.compiler)
        let directory = try ErrcatRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalog = directory.appendingPathComponent("pay.json")
        try ErrcatRunner.fixture("shapes-catalog.json").write(to: catalog)
        let source = directory.appendingPathComponent("pay_catalog.c")
        let header = directory.appendingPathComponent("pay_catalog.h")
        let gen = try ErrcatRunner.run(["gen", "c", catalog.path, "--output", source.path, "--header", header.path])
        #expect(gen.status == 0, "\(gen.errors)")
        // Each line of standard input is NAMESPACE<TAB>CODE; the program prints the class in hex.
        let main = directory.appendingPathComponent("main.c")
        try Data(
            """
            #include <stdio.h>
            #include <string.h>
            #include "pay_catalog.h"
            int main(void) {
                errcore_diag d;
                char line[4096];
                if (errcore_string_validate(errcore_pay_table(), errcore_pay_strings(), &d) != ERRCORE_OK) {
                    printf("invalid %d\\n", (int)d.status);
                    return 1;
                }
                while (fgets(line, sizeof line, stdin)) {
                    size_t n = strcspn(line, "\\n");
                    char *tab = memchr(line, '\\t', n);
                    if (!tab) return 2;
                    errcore_class c = errcore_classify_string(errcore_pay_strings(), line, (size_t)(tab - line),
                                                              tab + 1, n - (size_t)(tab - line) - 1);
                    printf("%016llx\\n", (unsigned long long)c);
                }
                return 0;
            }

            """.utf8
        ).write(to: main)
        let binary = directory.appendingPathComponent("pay")
        let compile = try await GeneratedSourceToolchain.compileC(
            compiler, sources: [source, main], binary: binary, in: directory)
        #expect(compile.status == 0, "\(compile.errors)")
        let definition = try CatalogDefinition(json: Array(ErrcatRunner.fixture("shapes-catalog.json")))
        let built = try Catalog(definition)
        var probes: [(namespace: String, code: String)] = []
        for entry in definition.stringEntries {
            let string = try #require(entry.string)
            let namespace = entry.namespace ?? ""
            probes += [(namespace, string), (namespace, string + "x"), (namespace, String(string.dropLast()))]
            probes += [("card_error", string), ("", string), ("api_error", string)]
        }
        probes += [("card_error", "expired_card"), ("card_error", "é"), ("nope", "card_declined")]
        let input = probes.map { "\($0.namespace)\t\($0.code)\n" }.joined()
        try Data(input.utf8).write(to: directory.appendingPathComponent("probes.txt"))
        let run = try await GeneratedSourceToolchain.run(
            "/bin/sh", ["-c", "\"$0\" < probes.txt", binary.path], in: directory)
        #expect(run.status == 0, "\(run.output)")
        let expected = probes.map { probe in
            let raw = built.classify(string: probe.code, namespace: probe.namespace).rawValue
            let hex = String(raw, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }
        #expect(run.output.split(separator: "\n").map(String.init) == expected)
    }

    @Test(
        "the installing form carries string codes, namespaces and shapes: compiled, it classifies every probe as the file's catalog",
        .enabled(if: GeneratedSourceToolchain.swiftUnavailable == nil))
    func installingStringCodes() async throws {
        let directory = try ErrcatRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalog = directory.appendingPathComponent("pay.json")
        // The fixture, and a shape whose strings could end a Swift literal if written as they are.
        var file = try #require(
            try JSONSerialization.jsonObject(with: ErrcatRunner.fixture("shapes-catalog.json")) as? [String: Any])
        var shapes = try #require(file["shapes"] as? [[String: Any]])
        shapes.append([
            "name": "hostile", "code": ["path": ["x\"y", "\"\"\""]], "codeType": "string",
            "fallbackCodes": [["path": ["\\", "\u{0}", "#\"#"]], ["header": "x-code"]],
            "defaultCode": "\"); fatalError(\"\\(1)\n", "failure": ["present": ["path": ["}"]]],
        ])
        file["shapes"] = shapes
        let bytes = try JSONSerialization.data(withJSONObject: file)
        try bytes.write(to: catalog)
        let generated = directory.appendingPathComponent("PayCatalog.swift")
        let gen = try ErrcatRunner.run(["gen", "swift", "--installing", catalog.path, "--output", generated.path])
        #expect(gen.status == 0, "\(gen.errors)")
        let definition = try CatalogDefinition(json: Array(bytes))
        #expect(definition.shapes.last?.defaultCode == .string("\"); fatalError(\"\\(1)\n"))
        let built = try Catalog(definition)
        var probes: [(namespace: String?, code: String)] = [("card_error", "expired_card"), (nil, "card_declined")]
        for entry in definition.stringEntries {
            probes.append((entry.namespace, try #require(entry.string)))
        }
        var main = "import SwiftErr\n"
        main += "let catalog = try PayCatalog.install()\n"
        main += "print(PayCatalog.definition.shapes)\n"
        main +=
            "print(CardCode.stringNamespaces, CardCode.cardDeclined.stringCode ?? \"-\", CardCode.other(150).stringCode ?? \"-\")\n"
        var expected = "\(definition.shapes)\n"
        expected += "[\"card_error\"] card_declined -\n"
        for probe in probes {
            let namespace = probe.namespace.map { "\"\($0)\"" } ?? "nil"
            main += "print(catalog.classify(string: \"\(probe.code)\", namespace: \(namespace)).rawValue)\n"
            expected += "\(built.classify(string: probe.code, namespace: probe.namespace).rawValue)\n"
        }
        let mainFile = directory.appendingPathComponent("main.swift")
        try Data(main.utf8).write(to: mainFile)
        let binary = directory.appendingPathComponent("pay")
        let build = try await GeneratedSourceToolchain.buildSwift([generated, mainFile], binary: binary, in: directory)
        try #require(build.succeeded, "\(build.errors)")
        let run = try await GeneratedSourceToolchain.run(binary.path, [], in: directory)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output == expected)
    }

    @Test("gen refuses to write over a file it wrote in the same run, or over the catalog it reads")
    func noOverwrite() throws {
        let directory = try ErrcatRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Two names for one file: AccountCode.swift is a link to UploadCode.swift.
        let output = directory.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        try Data("keep\n".utf8).write(to: output.appendingPathComponent("UploadCode.swift"))
        try FileManager.default.createSymbolicLink(
            at: output.appendingPathComponent("AccountCode.swift"),
            withDestinationURL: output.appendingPathComponent("UploadCode.swift"))
        let linked = try ErrcatRunner.run(["gen", "swift", "catalog/default.json", "--output-dir", output.path])
        #expect(linked.status == 1)
        #expect(
            linked.errors
                == "errcat gen: cannot write \(output.path)/UploadCode.swift: refusing to overwrite the file written earlier as \(output.path)/AccountCode.swift (the same file)\n"
        )
        let account = try String(contentsOf: output.appendingPathComponent("UploadCode.swift"), encoding: .utf8)
        #expect(account.contains("public enum AccountCode"), "the first write stands; the second did not truncate it")

        let catalog = directory.appendingPathComponent("small.json")
        try ErrcatRunner.fixture("small-catalog.json").write(to: catalog)
        let before = try Data(contentsOf: catalog)
        let onto = try ErrcatRunner.run(["gen", "c", catalog.path, "--output", catalog.path])
        #expect(onto.status == 1)
        #expect(
            onto.errors.contains("cannot write \(catalog.path): refusing to overwrite the catalog being read"),
            "\(onto.errors)")
        #expect(try Data(contentsOf: catalog) == before)
    }
}
