// Hostile catalog files against `errcat check` and `errcat gen`: names the generated sources
// cannot use are rejected where they are written, and text that tries to leave a comment or a
// string literal stays data in output that compiles.

import Foundation
import SwiftErr
import SwiftErrCatalogFile
import Testing

@Suite("errcat with hostile catalogs")
struct HostileCatalogTests {
    /// A catalog, one member per line: the base tier from `base`, a module per `modules` entry
    /// (name, case names; module k owns 1000k...1000k+999 and its cases are 1000k+1, 1000k+2, …).
    static func catalog(
        name: String = "hostile", base: [String] = [], modules: [(String, [String])] = [],
        message: String = "m", title: String? = nil
    ) -> String {
        let json = CatalogFileWriter.json
        var lines = [
            "{", "\"format\": \"swifterr-catalog/1\",", "\"name\": \(json(name)),",
            "\"success\": {\"code\": 0, \"name\": \"ok\", \"message\": {\"en\": \(json(message))}},",
            "\"base\": [",
        ]
        for (index, entry) in base.enumerated() {
            lines.append(
                "{\"code\": \(-(index + 1)), \"name\": \(json(entry)), \"message\": {\"en\": \(json(message))}}"
                    + (index == base.count - 1 ? "" : ","))
        }
        lines.append("],")
        lines.append("\"modules\": [")
        for (index, module) in modules.enumerated() {
            let low = 1000 * (index + 1)
            let titleMember = title.map { ", \"title\": {\"en\": \(json($0)), \"zh-Hans\": \(json($0))}" } ?? ""
            lines.append(
                "{\"name\": \(json(module.0))\(titleMember), \"ranges\": [[\(low), \(low + 999)]], \"codes\": [")
            for (position, entry) in module.1.enumerated() {
                lines.append(
                    "{\"code\": \(low + position + 1), \"name\": \(json(entry)), \"message\": {\"en\": \(json(message))}}"
                        + (position == module.1.count - 1 ? "" : ","))
            }
            lines.append("]}" + (index == modules.count - 1 ? "" : ","))
        }
        lines.append("]")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Line and column (in scalars) of the value after the `occurrence`-th `"name": <json>`.
    static func location(ofName json: String, in text: String, occurrence: Int = 1) throws -> String {
        var searchStart = text.startIndex
        var found: Range<String.Index>? = nil
        for _ in 0..<occurrence {
            found = text.range(of: "\"name\": \(json)", range: searchStart..<text.endIndex)
            searchStart = try #require(found).upperBound
        }
        let valueStart = text.index(try #require(found).lowerBound, offsetBy: 8)
        let before = text[..<valueStart]
        let line = before.filter { $0 == "\n" }.count + 1
        let lineStart = before.lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
        return "\(line):\(text[lineStart..<valueStart].unicodeScalars.count + 1)"
    }

    static let rejected: [(String, String, String, Int, String)] = [
        // (what, catalog, the name's JSON, occurrence, text the problem must contain)
        (
            "a case named _", catalog(modules: [("foo", ["_"])]), "\"_\"", 1,
            "the name \"_\" of an entry of module \"foo\" is reserved: in the generated Swift enum FooCode"
        ),
        ("a case named Self", catalog(modules: [("foo", ["Self"])]), "\"Self\"", 1, "\"Self\" of an entry"),
        ("a case named Protocol", catalog(modules: [("foo", ["Protocol"])]), "\"Protocol\"", 1, "\"Protocol\""),
        ("a case named Type", catalog(modules: [("foo", ["Type"])]), "\"Type\"", 1, "\"Type\""),
        ("a case named init", catalog(modules: [("foo", ["init"])]), "\"init\"", 1, "\"init\""),
        (
            "a case named code", catalog(modules: [("foo", ["code"])]), "\"code\"", 1,
            "in the generated Swift enum FooCode it is its property code"
        ),
        ("a case named moduleName", catalog(modules: [("foo", ["moduleName"])]), "\"moduleName\"", 1, "moduleName"),
        ("a case named moduleTitle", catalog(modules: [("foo", ["moduleTitle"])]), "\"moduleTitle\"", 1, "moduleTitle"),
        ("a case named codeRanges", catalog(modules: [("foo", ["codeRanges"])]), "\"codeRanges\"", 1, "codeRanges"),
        ("a case named listedCases", catalog(modules: [("foo", ["listedCases"])]), "\"listedCases\"", 1, "listedCases"),
        (
            "a case named unrecognised", catalog(modules: [("foo", ["unrecognised"])]), "\"unrecognised\"", 1,
            "unrecognised"
        ),
        ("a case named classifier", catalog(modules: [("foo", ["classifier"])]), "\"classifier\"", 1, "classifier"),
        (
            "a case named isUnrecognised", catalog(modules: [("foo", ["isUnrecognised"])]), "\"isUnrecognised\"", 1,
            "isUnrecognised"
        ),
        ("a case named name", catalog(modules: [("foo", ["name"])]), "\"name\"", 1, "its property name"),
        ("a case named flags", catalog(modules: [("foo", ["flags"])]), "\"flags\"", 1, "its property flags"),
        ("a case named message", catalog(modules: [("foo", ["message"])]), "\"message\"", 1, "its property message"),
        ("a case named other", catalog(modules: [("foo", ["other"])]), "\"other\"", 1, "its fallback case other(_:)"),
        (
            "a case named definition", catalog(modules: [("foo", ["definition"])]), "\"definition\"", 1,
            "ModuleCode member"
        ),
        (
            "a case named catalog", catalog(modules: [("foo", ["catalog"])]), "\"catalog\"", 1,
            "ModuleCode member catalog"
        ),
        ("a case named classify", catalog(modules: [("foo", ["classify"])]), "\"classify\"", 1, "classify(_:)"),
        (
            "a case named LocalizedText", catalog(modules: [("foo", ["LocalizedText"])]), "\"LocalizedText\"", 1,
            "the type LocalizedText"
        ),
        (
            "a case named CodeFlags", catalog(modules: [("foo", ["CodeFlags"])]), "\"CodeFlags\"", 1,
            "the type CodeFlags"
        ),
        (
            "a case named like the catalog's type", catalog(modules: [("foo", ["HostileCatalog"])]),
            "\"HostileCatalog\"", 1,
            "in the generated Swift enum FooCode it would hide the catalog type HostileCatalog that the enum refers to"
        ),
        ("a base entry named rawValue", catalog(base: ["rawValue"]), "\"rawValue\"", 1, "BaseCode.rawValue"),
        ("a base entry named BaseCode", catalog(base: ["BaseCode"]), "\"BaseCode\"", 1, "the type BaseCode itself"),
        ("a base entry named Protocol", catalog(base: ["Protocol"]), "\"Protocol\"", 1, "BaseCode.Protocol"),
        ("a base entry named _", catalog(base: ["_"]), "\"_\"", 1, "the base entry name \"_\" is reserved"),
        (
            "a module named module", catalog(modules: [("module", ["a"])]), "\"module\"", 1,
            "the module name \"module\" is reserved: its Swift enum would be ModuleCode"
        ),
        ("a module named base", catalog(modules: [("base", ["a"])]), "\"base\"", 1, "would be BaseCode"),
        (
            "modules foo and Foo", catalog(modules: [("foo", ["a"]), ("Foo", ["a"])]), "\"Foo\"", 1,
            "module 2 \"Foo\" and module 1 \"foo\" both become the Swift enum FooCode (file FooCode.swift)"
        ),
        (
            "modules fooBar and FOOBAR", catalog(modules: [("fooBar", ["a"]), ("FOOBAR", ["a"])]), "\"FOOBAR\"", 1,
            "become files that differ only in letter case (FOOBARCode.swift, FooBarCode.swift)"
        ),
        (
            "a catalog name that is no C identifier", catalog(name: "my-catalog"), "\"my-catalog\"", 1,
            "the catalog name \"my-catalog\" is not an identifier"
        ),
        (
            "a catalog name with CRLF and code", catalog(name: "x\r\nlet PWNED = 42\r\n//"),
            "\"x\\u000d\\u000alet PWNED = 42\\u000d\\u000a//\"", 1,
            "the catalog name \"x\\r\\nlet PWNED = 42\\r\\n//\" is not an identifier"
        ),
        (
            "a catalog name with a backslash-newline splice", catalog(name: "x*\\\r\n/ int PWNED = 42; /*"),
            "\"x*\\\\\\u000d\\u000a/ int PWNED = 42; /*\"", 1, "the catalog name \"x*\\\\\\r\\n/ int PWNED = 42; /*\""
        ),
    ]

    @Test("check rejects names the generated sources cannot use, at the name's line and column", arguments: rejected)
    func reservedNames(what: String, text: String, nameJSON: String, occurrence: Int, fragment: String) throws {
        let file = try ErrcatRunner.temporaryFile(Data(text.utf8), name: "hostile.json")
        let result = try ErrcatRunner.run(["check", file.path])
        #expect(result.status == 1, "\(what)")
        #expect(result.output.isEmpty)
        let place = try Self.location(ofName: nameJSON, in: text, occurrence: occurrence)
        let problems = result.errorLines.filter { $0.contains(": error: ") }
        #expect(problems.count == 1, "\(what): \(result.errors)")
        #expect(problems.first?.hasPrefix("\(file.path):\(place): error: ") == true, "\(what): \(result.errors)")
        #expect(problems.first?.contains(fragment) == true, "\(what): \(result.errors)")
        // gen refuses the same catalog with the same report, writing nothing, in every form.
        for form in [["c"], ["swift"], ["swift", "--installing"]] {
            let gen = try ErrcatRunner.run(["gen"] + form + [file.path])
            #expect(gen.status == 1)
            #expect(gen.output.isEmpty)
            #expect(gen.errors.contains("\(file.path):\(place): error: "), "\(what): \(gen.errors)")
        }
    }

    @Test("names a Swift keyword but not reserved are generated in backticks and compile")
    func keywordsStillAllowed() async throws {
        let text = Self.catalog(
            base: ["default", "class", "Any"],
            modules: [("foo", ["default", "deinit", "subscript", "Any", "FooCode", "true", "in"])])
        let file = try ErrcatRunner.temporaryFile(Data(text.utf8), name: "keywords.json")
        let check = try ErrcatRunner.run(["check", file.path])
        #expect(check.status == 0, "\(check.errors)")
        try await Self.compileGeneratedSwift(file, probe: nil)
    }

    /// Titles and messages that try to leave their comment or literal.
    static let hostileTexts: [String] = [
        "Title\r\n    public static let PWNED = 42\r\n    ///",
        "First line.\r\nSecond line.",
        "x*\\\r\n/ int PWNED = 42; /*",
        "x*/\u{301} int PWNED = 42; /*",
        "*/ int PWNED = 42; /* ??/\n??= ??' \\",
        "line\u{2028}separator\u{2029}paragraph\u{85}next line\u{B}\u{C}",
        "bidi \u{202E}desrever\u{202C} \u{2066}isolate\u{2069} \u{200B}zero\u{FEFF}width \u{E000} \u{10FFFF}",
        "\"\\(PWNED)\" #\"raw\"# `tick` \u{1B}[31mred\u{7F}",
        "/// doc\n// comment\n/* block */ \"\"\" multi",
    ]

    @Test(
        "gen swift: hostile titles and messages stay string data and doc text; the output type-checks",
        .enabled(if: GeneratedSourceToolchain.swiftUnavailable == nil))
    func swiftInjection() async throws {
        for (index, text) in Self.hostileTexts.enumerated() {
            let catalog = Self.catalog(
                name: "hostile\(index)", base: ["b\(index)"], modules: [("m\(index)", ["a"])], message: text,
                title: text)
            let file = try ErrcatRunner.temporaryFile(Data(catalog.utf8), name: "hostile.json")
            let check = try ErrcatRunner.run(["check", file.path])
            #expect(check.status == 0, "\(index): \(check.errors)")
            // The injected member must not exist: a file using it fails to type-check.
            try await Self.compileGeneratedSwift(file, probe: "let _ = M\(index)Code.PWNED\nlet _ = BaseCode.PWNED\n")
        }
    }

    /// Generates the Swift of `file` in both forms (one file each, and `--installing`, the
    /// plugin's), checks that it holds no raw line break other than LF and no invisible character,
    /// type-checks each form, and, with `probe`, checks that the probe does not type-check with it.
    static func compileGeneratedSwift(_ file: URL, probe: String?) async throws {
        let directory = try ErrcatRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let generated = directory.appendingPathComponent("generated")
        try FileManager.default.createDirectory(at: generated, withIntermediateDirectories: true)
        let gen = try ErrcatRunner.run(["gen", "swift", file.path, "--output-dir", generated.path])
        try #require(gen.status == 0, "\(gen.errors)")
        let files = try FileManager.default.contentsOfDirectory(at: generated, includingPropertiesForKeys: nil)
        let installing = directory.appendingPathComponent("installing/catalog.swift")
        try FileManager.default.createDirectory(
            at: installing.deletingLastPathComponent(), withIntermediateDirectories: true)
        let genInstalling = try ErrcatRunner.run([
            "gen", "swift", "--installing", file.path, "--output", installing.path,
        ])
        try #require(genInstalling.status == 0, "\(genInstalling.errors)")
        for source in files + [installing] {
            let text = String(decoding: try Data(contentsOf: source), as: UTF8.self)
            let unsafe = text.unicodeScalars.filter { $0 != "\n" && !DisplayText.isVisible($0) }
            #expect(unsafe.isEmpty, "\(source.lastPathComponent): \(unsafe.map { String($0.value, radix: 16) })")
        }
        guard GeneratedSourceToolchain.swiftUnavailable == nil else { return }
        let sources = try GeneratedSourceToolchain.importing(files, into: directory.appendingPathComponent("typecheck"))
        for form in [sources, [installing]] {
            let typecheck = try await GeneratedSourceToolchain.typecheckSwift(form, in: directory)
            #expect(typecheck.succeeded, "\(typecheck.errors)")
            if let probe {
                let probeFile = directory.appendingPathComponent("probe.swift")
                try Data(("import SwiftErr\n" + probe).utf8).write(to: probeFile)
                let probed = try await GeneratedSourceToolchain.typecheckSwift(form + [probeFile], in: directory)
                #expect(!probed.succeeded, "an injected member PWNED exists")
                #expect(probed.errors.contains("PWNED"))
            }
        }
    }

    @Test(
        "gen c: hostile texts stay string data; the output compiles with -Werror and keeps every text",
        .enabled(if: !GeneratedSourceToolchain.cCompilers.isEmpty))
    func cInjection() async throws {
        let directory = try ErrcatRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalog = Self.catalog(
            name: "hostile", base: ["tokenExpire"], modules: [("foo", ["a"])],
            message: Self.hostileTexts.joined(separator: "|"),
            title: Self.hostileTexts.reversed().joined(separator: "|"))
        let file = directory.appendingPathComponent("hostile.json")
        try Data(catalog.utf8).write(to: file)
        let source = directory.appendingPathComponent("hostile_catalog.c")
        let header = directory.appendingPathComponent("hostile_catalog.h")
        let gen = try ErrcatRunner.run(["gen", "c", file.path, "--output", source.path, "--header", header.path])
        try #require(gen.status == 0, "\(gen.errors)")
        for generated in [source, header] {
            let text = String(decoding: try Data(contentsOf: generated), as: UTF8.self)
            #expect(!text.unicodeScalars.contains { $0 != "\n" && !DisplayText.isVisible($0) && $0 != "—" })
            #expect(!text.contains("\\\n"), "no line splice")
        }
        let main = directory.appendingPathComponent("main.c")
        try Data(
            """
            #include <stdio.h>
            #include "hostile_catalog.h"
            int main(void) {
                const errcore_table *t = errcore_hostile_table();
                errcore_diag d;
                if (errcore_validate(t, &d) != ERRCORE_OK) return 1;
                errcore_class c = errcore_classify(t, 0);
                fputs(errcore_entry_message(t, errcore_class_entry(c), ERRCORE_LANG_EN), stdout);
                fputs("\\n---\\n", stdout);
                fputs(errcore_module_title(t, 1, ERRCORE_LANG_ZH_HANS), stdout);
                return 0;
            }

            """.utf8
        ).write(to: main)
        for compiler in GeneratedSourceToolchain.cCompilers {
            let binary = directory.appendingPathComponent("hostile-\(URL(fileURLWithPath: compiler).lastPathComponent)")
            let build = try await GeneratedSourceToolchain.compileC(
                compiler, sources: [source, main], binary: binary, in: directory)
            #expect(build.succeeded, "\(compiler): \(build.errors)")
            guard build.succeeded else { continue }
            let run = try await GeneratedSourceToolchain.run(binary.path, [], in: directory)
            #expect(run.status == 0)
            #expect(
                run.output
                    == Self.hostileTexts.joined(separator: "|") + "\n---\n"
                    + Self.hostileTexts.reversed().joined(separator: "|"))
            if let nm = ["/usr/bin/nm"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
                let symbols = try await GeneratedSourceToolchain.run(nm, [binary.path], in: directory)
                #expect(!symbols.output.contains("PWNED"), "an injected global exists")
            }
        }
    }

    @Test(
        "gen c: a string pool over 4,095 bytes compiles under -Wpedantic -Werror; \"é\" and \"e\\u{301}\" stay two strings",
        .enabled(if: !GeneratedSourceToolchain.cCompilers.isEmpty))
    func largePool() async throws {
        let directory = try ErrcatRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Base entry k (code -(k+1)) has message k; the first two are canonically equivalent.
        let messages = ["\u{E9}", "e\u{301}"] + (2..<60).map { "message \($0) " + String(repeating: "x", count: 90) }
        var text = Self.catalog(name: "large", base: (0..<60).map { "b\($0)" })
        for (index, message) in messages.enumerated() {
            text = text.replacingOccurrences(
                of: "\"name\": \"b\(index)\", \"message\": {\"en\": \"m\"}",
                with: "\"name\": \"b\(index)\", \"message\": {\"en\": \"\(message)\"}")
        }
        let file = directory.appendingPathComponent("large.json")
        try Data(text.utf8).write(to: file)
        let source = directory.appendingPathComponent("large_catalog.c")
        let gen = try ErrcatRunner.run(["gen", "c", file.path, "--output", source.path])
        try #require(gen.status == 0, "\(gen.errors)")
        let generated = try String(contentsOf: source, encoding: .utf8)
        #expect(generated.contains("static const char errcore__large_strings[") && generated.contains("'\\000',"))
        let main = directory.appendingPathComponent("main.c")
        try Data(
            """
            #include <stdio.h>
            #include "CErrCore.h"
            const errcore_table *errcore_large_table(void);
            int main(void) {
                const errcore_table *t = errcore_large_table();
                errcore_diag d;
                if (errcore_validate(t, &d) != ERRCORE_OK) return 1;
                for (int k = 0; k < 60; k++) {
                    errcore_class c = errcore_classify(t, -(k + 1));
                    printf("%s\\n", errcore_entry_message(t, errcore_class_entry(c), ERRCORE_LANG_EN));
                }
                return 0;
            }

            """.utf8
        ).write(to: main)
        for compiler in GeneratedSourceToolchain.cCompilers {
            let binary = directory.appendingPathComponent("large-\(URL(fileURLWithPath: compiler).lastPathComponent)")
            let build = try await GeneratedSourceToolchain.compileC(
                compiler, sources: [source, main], binary: binary, in: directory)
            #expect(build.succeeded, "\(compiler): \(build.errors)")
            guard build.succeeded else { continue }
            let run = try await GeneratedSourceToolchain.run(binary.path, [], in: directory)
            #expect(run.status == 0)
            let lines = run.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            #expect(lines.map { Array($0.utf8) } == messages.map { Array($0.utf8) })
        }
    }
}
