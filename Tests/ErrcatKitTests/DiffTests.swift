// `errcat diff`: every kind of change with its class, the lines and the JSON it prints, --allow,
// exit statuses, and catalogs that cannot be compared.

import Foundation
import SwiftErrCatalogFile
import Testing

@testable import SwiftErr

@Suite("errcat diff")
struct DiffTests {
    /// A small catalog every case edits: two base codes, three modules (the last without codes).
    static let shop = CatalogDefinition(
        name: "shop",
        success: EntryDefinition(code: 0, name: "ok", message: LocalizedText(english: "OK", simplifiedChinese: "成功")),
        base: [
            EntryDefinition(
                code: 11001, name: "tokenExpire", flags: [.reauthenticate, .showUser],
                message: LocalizedText(english: "Sign in again.", simplifiedChinese: "请重新登录。")),
            EntryDefinition(
                code: 11002, name: "slowDown", flags: [.retryable], message: LocalizedText(english: "Busy.")),
            EntryDefinition(code: 3000, name: "legacy", message: LocalizedText(english: "Legacy.")),
        ],
        modules: [
            ModuleDefinition(
                name: "cart", title: LocalizedText(english: "Cart", simplifiedChinese: "购物车"), ranges: [1000...1999],
                codes: [
                    EntryDefinition(
                        code: 1001, name: "emptyCart", message: LocalizedText(english: "The cart is empty.")),
                    EntryDefinition(code: 1502, name: "itemGone", message: LocalizedText(english: "Gone.")),
                ]),
            ModuleDefinition(
                name: "pay", title: LocalizedText(english: "Payment"), ranges: [2000...2999],
                codes: [
                    EntryDefinition(
                        code: 2001, name: "declined", flags: [.fatal], message: LocalizedText(english: "Declined."))
                ]),
            ModuleDefinition(name: "misc", title: LocalizedText(english: "Misc"), ranges: [5000...5999], codes: []),
        ])

    /// Runs `errcat diff` on `old` and `new` written as files, with `options` before them.
    static func diff(
        _ new: CatalogDefinition, from old: CatalogDefinition = shop, options: [String] = []
    ) throws -> ErrcatResult {
        let oldFile = try CatalogFileWriter.temporaryFile(old, name: "old.json")
        let newFile = try CatalogFileWriter.temporaryFile(new, name: "new.json")
        defer {
            for file in [oldFile, newFile] { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        }
        return try ErrcatRunner.run(["diff"] + options + [oldFile.path, newFile.path])
    }

    /// The `changes` of a `--json` report as (kind, class, code, module) tuples.
    static func changes(_ result: ErrcatResult) throws -> [[String: Any]] {
        let report = try result.jsonObject()
        return try #require(report["changes"] as? [[String: Any]], "\(result.output)")
    }

    @Test("identical catalogs: \"no changes\", status 0; the default catalog against itself too")
    func identical() throws {
        let result = try Self.diff(Self.shop)
        #expect(result.status == 0)
        #expect(result.output == "no changes\n")
        #expect(result.errors.isEmpty)
        let same = try ErrcatRunner.run(["diff", "catalog/default.json", "catalog/default.json"])
        #expect(same.status == 0)
        #expect(same.output == "no changes\n")
        let json = try ErrcatRunner.run(["diff", "--json", "catalog/default.json", "catalog/default.json"])
        let report = try json.jsonObject()
        #expect((report["changes"] as? [Any])?.isEmpty == true)
        #expect((report["summary"] as? [String: Int]) == ["changes": 0, "breaking": 0, "allowed": 0, "compatible": 0])
    }

    /// One edit of `shop` and the one change it must give.
    struct Case: CustomTestStringConvertible, Sendable {
        var label: String
        var edit: @Sendable (inout CatalogDefinition) -> Void
        var kind: String
        var changeClass: String
        var code: Int64?
        var module: String?
        var detail: String? = nil
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(
            label: "code removed", edit: { $0.modules[0].codes.remove(at: 0) }, kind: "code-removed",
            changeClass: "breaking", code: 1001, module: "cart"),
        Case(
            label: "code added",
            edit: {
                $0.modules[1].codes.append(
                    EntryDefinition(code: 2002, name: "late", message: LocalizedText(english: "Late.")))
            },
            kind: "code-added", changeClass: "compatible", code: 2002, module: "pay"),
        Case(
            label: "base code added",
            edit: {
                $0.base.append(EntryDefinition(code: 11003, name: "again", message: LocalizedText(english: "A.")))
            },
            kind: "code-added", changeClass: "compatible", code: 11003, module: nil),
        Case(
            label: "entry renamed (its generated case changes)", edit: { $0.modules[0].codes[0].name = "emptyBasket" },
            kind: "entry-renamed", changeClass: "breaking", code: 1001, module: "cart"),
        Case(
            label: "success entry renamed", edit: { $0.success.name = "fine" }, kind: "entry-renamed",
            changeClass: "breaking", code: 0, module: nil),
        Case(
            label: "base entry renamed", edit: { $0.base[1].name = "slowDownPlease" }, kind: "entry-renamed",
            changeClass: "breaking", code: 11002, module: nil),
        Case(
            label: "retryable added", edit: { $0.modules[0].codes[0].flags.insert(.retryable) }, kind: "flag-added",
            changeClass: "breaking", code: 1001, module: "cart", detail: "retryable"),
        Case(
            label: "retryable removed", edit: { $0.base[1].flags.remove(.retryable) }, kind: "flag-removed",
            changeClass: "breaking", code: 11002, module: nil, detail: "retryable"),
        Case(
            label: "fatal removed", edit: { $0.modules[1].codes[0].flags.remove(.fatal) }, kind: "flag-removed",
            changeClass: "breaking", code: 2001, module: "pay", detail: "fatal"),
        Case(
            label: "fatal added", edit: { $0.base[1].flags.insert(.fatal) }, kind: "flag-added",
            changeClass: "breaking", code: 11002, module: nil, detail: "fatal"),
        Case(
            label: "reauthenticate removed", edit: { $0.base[0].flags.remove(.reauthenticate) }, kind: "flag-removed",
            changeClass: "breaking", code: 11001, module: nil, detail: "reauthenticate"),
        Case(
            label: "an application flag added", edit: { $0.base[1].flags.insert(CodeFlags(rawValue: 1 << 5)) },
            kind: "flag-added", changeClass: "breaking", code: 11002, module: nil, detail: "app5"),
        Case(
            label: "showUser added (presentation)", edit: { $0.modules[0].codes[1].flags.insert(.showUser) },
            kind: "flag-added", changeClass: "compatible", code: 1502, module: "cart", detail: "showUser"),
        Case(
            label: "showUser removed (presentation)", edit: { $0.base[0].flags.remove(.showUser) },
            kind: "flag-removed", changeClass: "compatible", code: 11001, module: nil, detail: "showUser"),
        Case(
            label: "success code changed", edit: { $0.success.code = 200 }, kind: "success-code-changed",
            changeClass: "breaking", code: 200, module: nil),
        Case(
            label: "catalog renamed", edit: { $0.name = "store" }, kind: "catalog-renamed", changeClass: "breaking",
            code: nil, module: nil),
        Case(
            label: "module removed (the last, without codes)", edit: { $0.modules.removeLast() },
            kind: "module-removed", changeClass: "breaking", code: nil, module: "misc"),
        Case(
            label: "module renamed (same ranges)", edit: { $0.modules[2].name = "extras" }, kind: "module-renamed",
            changeClass: "breaking", code: nil, module: "extras"),
        Case(
            label: "range shrunk", edit: { $0.modules[2].ranges = [5000...5499] }, kind: "range-shrunk",
            changeClass: "breaking", code: nil, module: "misc"),
        Case(
            label: "range grown", edit: { $0.modules[2].ranges = [5000...6999] }, kind: "range-grown",
            changeClass: "compatible", code: nil, module: "misc"),
        Case(
            label: "range split into two adjacent ranges is no change",
            edit: { $0.modules[2].ranges = [5000...5499, 5500...5999] }, kind: "", changeClass: "", code: nil,
            module: nil),
        Case(
            label: "module added at the end",
            edit: {
                $0.modules.append(
                    ModuleDefinition(
                        name: "gift", title: LocalizedText(english: "Gift"), ranges: [7000...7999], codes: []))
            }, kind: "module-added", changeClass: "compatible", code: nil, module: "gift"),
        Case(
            label: "message changed", edit: { $0.modules[1].codes[0].message.english = "Card declined." },
            kind: "message-changed", changeClass: "compatible", code: 2001, module: "pay", detail: "en"),
        Case(
            label: "language added", edit: { $0.base[1].message.simplifiedChinese = "忙。" }, kind: "language-added",
            changeClass: "compatible", code: 11002, module: nil, detail: "zh-Hans"),
        Case(
            label: "language removed", edit: { $0.base[0].message.simplifiedChinese = nil }, kind: "language-removed",
            changeClass: "compatible", code: 11001, module: nil, detail: "zh-Hans"),
        Case(
            label: "module title changed", edit: { $0.modules[1].title.english = "Payments" }, kind: "title-changed",
            changeClass: "compatible", code: nil, module: "pay", detail: "en"),
        Case(
            label: "module title language added", edit: { $0.modules[1].title.simplifiedChinese = "支付" },
            kind: "title-language-added", changeClass: "compatible", code: nil, module: "pay", detail: "zh-Hans"),
        Case(
            label: "module title language removed", edit: { $0.modules[0].title.simplifiedChinese = nil },
            kind: "title-language-removed", changeClass: "compatible", code: nil, module: "cart", detail: "zh-Hans"),
    ]

    @Test("each kind of change: its class, the one change reported, and the exit status", arguments: cases)
    func oneChange(_ item: Case) throws {
        var new = Self.shop
        item.edit(&new)
        let result = try Self.diff(new, options: ["--json"])
        let changes = try Self.changes(result)
        if item.kind.isEmpty {
            #expect(changes.isEmpty, "\(changes)")
            #expect(result.status == 0)
            return
        }
        try #require(changes.count == 1, "\(result.output)")
        let change = changes[0]
        #expect(change["kind"] as? String == item.kind)
        #expect(change["class"] as? String == item.changeClass)
        #expect(change["code"] as? Int64 == item.code)
        #expect(change["module"] as? String == item.module)
        #expect(change["detail"] as? String == item.detail)
        #expect(result.status == (item.changeClass == "breaking" ? 1 : 0))
        let text = try Self.diff(new)
        #expect(text.status == result.status)
        #expect(text.lines.count == 2, "one change and the summary: \(text.output)")
        #expect(text.lines.first?.hasPrefix(item.changeClass == "breaking" ? "BREAKING   " : "COMPATIBLE ") == true)
        if let code = item.code { #expect(text.lines.first?.contains(" \(code) ") == true, "\(text.output)") }
        #expect(
            text.lines.last
                == "1 change: \(item.changeClass == "breaking" ? 1 : 0) breaking, 0 allowed, \(item.changeClass == "breaking" ? 0 : 1) compatible"
        )
    }

    @Test("lines: class, code, place, name, what changed old → new, and why")
    func lines() throws {
        var new = Self.shop
        new.modules[0].codes.remove(at: 0)
        new.base[0].flags.insert(.retryable)
        new.modules[2].ranges = [5000...5499]
        let result = try Self.diff(new)
        #expect(result.status == 1)
        #expect(
            result.lines == [
                "BREAKING   1001 module cart emptyCart: code removed (CartCode.emptyCart is gone and 1001 is now an unrecognised code of module cart)",
                "BREAKING   module misc: ranges shrunk: [5000, 5999] → [5000, 5499] (codes [5500, 5999] no longer belong to the module)",
                "BREAKING   11001 base tokenExpire: flag retryable added: [reauthenticate, showUser] → [retryable, reauthenticate, showUser] (behaviour: RetryPolicy retries retryable codes and the recovery offers Try Again)",
                "3 changes: 3 breaking, 0 allowed, 0 compatible",
            ])
    }

    @Test("a code moved between modules, and from the base tier into a module")
    func moved() throws {
        var new = Self.shop
        new.modules[0].ranges = [1000...1499]
        new.modules[0].codes.removeLast()
        new.modules[1].ranges = [1500...1999, 2000...2999]
        new.modules[1].codes.append(
            EntryDefinition(code: 1502, name: "itemGone", message: LocalizedText(english: "Gone.")))
        new.base.removeLast()
        new.modules[2].ranges = [3000...3000, 5000...5999]
        new.modules[2].codes.append(
            EntryDefinition(code: 3000, name: "legacy", message: LocalizedText(english: "Legacy.")))
        let result = try Self.diff(new, options: ["--json"])
        #expect(result.status == 1)
        let summary = try Self.changes(result).map {
            "\($0["kind"] as? String ?? "?") \($0["class"] as? String ?? "?") \($0["code"] as? Int64 ?? -1) \($0["old"] as? String ?? "-") → \($0["new"] as? String ?? "-")"
        }
        #expect(
            summary == [
                "range-shrunk breaking -1 [1000, 1999] → [1000, 1499]",
                "code-moved breaking 1502 module cart → module pay",
                "range-grown compatible -1 [2000, 2999] → [1500, 2999]",
                "code-moved breaking 3000 base → module misc",
                "range-grown compatible -1 [5000, 5999] → [3000, 3000], [5000, 5999]",
            ])
    }

    @Test("modules reordered: each moved module's id change is breaking; a module inserted before others too")
    func reordered() throws {
        var swapped = Self.shop
        swapped.modules.swapAt(0, 1)
        let result = try Self.diff(swapped, options: ["--json"])
        #expect(result.status == 1)
        let changes = try Self.changes(result)
        #expect(changes.map { $0["kind"] as? String } == ["module-id-changed", "module-id-changed"])
        #expect(changes.map { $0["old"] as? String } == ["1", "2"])
        #expect(changes.map { $0["new"] as? String } == ["2", "1"])
        var inserted = Self.shop
        inserted.modules.insert(
            ModuleDefinition(name: "gift", title: LocalizedText(english: "Gift"), ranges: [7000...7999], codes: []),
            at: 0)
        let kinds = try Self.changes(try Self.diff(inserted, options: ["--json"])).map { $0["kind"] as? String ?? "" }
        #expect(kinds == ["module-id-changed", "module-id-changed", "module-id-changed", "module-added"])
    }

    @Test("a renamed module's codes move with it; --allow module:OLD allows the rename, its id and those moves")
    func renamedModule() throws {
        var new = Self.shop
        new.modules[0].name = "basket"
        let result = try Self.diff(new, options: ["--json"])
        #expect(result.status == 1)
        #expect(
            try Self.changes(result).map { $0["kind"] as? String ?? "" } == [
                "module-renamed", "code-moved", "code-moved",
            ])
        let allowed = try Self.diff(new, options: ["--allow", "module:cart"])
        #expect(allowed.status == 0, "\(allowed.output)\(allowed.errors)")
        #expect(allowed.lines.allSatisfy { $0.hasPrefix("ALLOWED") || $0.hasPrefix("3 changes") }, "\(allowed.output)")
        #expect(allowed.lines.last == "3 changes: 0 breaking, 3 allowed, 0 compatible")
    }

    @Test("--allow: repeated and comma-separated, codes and module:NAME and catalog; listed as ALLOWED, status 0")
    func allow() throws {
        var new = Self.shop
        new.modules[0].codes.remove(at: 0)
        new.base[1].name = "busy"
        new.modules[2].ranges = [5000...5001]
        new.name = "store"
        new.modules[1].codes[0].message.english = "No."
        let refused = try Self.diff(new)
        #expect(refused.status == 1)
        #expect(refused.lines.last == "5 changes: 4 breaking, 0 allowed, 1 compatible")
        let result = try Self.diff(
            new, options: ["--allow", "1001, 11002", "--allow=module:misc", "--allow", "catalog"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.errors.isEmpty)
        #expect(result.lines.filter { $0.hasPrefix("ALLOWED    ") }.count == 4)
        #expect(result.lines.last == "5 changes: 0 breaking, 4 allowed, 1 compatible")
        let partly = try Self.diff(new, options: ["--allow", "1001", "--json"])
        #expect(partly.status == 1)
        let report = try partly.jsonObject()
        #expect((report["summary"] as? [String: Int]) == ["changes": 5, "breaking": 3, "allowed": 1, "compatible": 1])
        let allowedCodes = try Self.changes(partly).filter { $0["allowed"] as? Bool == true }.map {
            $0["code"] as? Int64
        }
        #expect(allowedCodes == [1001])
    }

    @Test("a stale --allow (no breaking change at that code) is an error: reported, status 2, after the report")
    func staleAllow() throws {
        var new = Self.shop
        new.modules[1].codes[0].message.english = "No."
        let result = try Self.diff(new, options: ["--allow", "2001,4242", "--allow", "module:cart"])
        #expect(result.status == 2)
        #expect(result.lines.last == "1 change: 0 breaking, 0 allowed, 1 compatible")
        #expect(
            result.errorLines == [
                "errcat diff: --allow 2001 names no breaking change; remove it (a stale allow would hide a future break)",
                "errcat diff: --allow 4242 names no breaking change; remove it (a stale allow would hide a future break)",
                "errcat diff: --allow module:cart names no breaking change; remove it (a stale allow would hide a future break)",
            ])
        let json = try Self.diff(new, options: ["--allow", "4242", "--json"])
        #expect(json.status == 2)
        #expect(try json.jsonObject()["staleAllows"] as? [String] == ["4242"])
    }

    @Test("--allow values that are not a code, module:NAME, shape:NAME or catalog are usage errors")
    func badAllow() throws {
        for value in ["abc", "module:", "shape:", "1,,2", "12x"] {
            let result = try Self.diff(Self.shop, options: ["--allow", value])
            #expect(result.status == 2, "\(value)")
            #expect(
                result.errors.hasPrefix("errcat diff: --allow needs a code, module:NAME, shape:NAME or catalog"),
                "\(value)")
            #expect(result.output.isEmpty)
        }
    }

    @Test("--json: the schema's keys, types and summary")
    func jsonSchema() throws {
        var new = Self.shop
        new.modules[0].codes.remove(at: 0)
        new.modules[1].codes[0].message.english = "Declined \u{1B}[31m\u{202E}."
        let result = try Self.diff(new, options: ["--json", "--allow", "1001"])
        #expect(result.status == 0)
        let report = try result.jsonObject()
        #expect(Set(report.keys) == ["schema", "old", "new", "changes", "staleAllows", "summary"])
        #expect(report["schema"] as? String == "errcat-diff/1")
        #expect((report["old"] as? [String: String])?["catalog"] == "shop")
        #expect((report["new"] as? [String: String])?["file"]?.hasSuffix("new.json") == true)
        let changes = try Self.changes(result)
        for change in changes {
            #expect(
                Set(change.keys) == [
                    "class", "allowed", "kind", "code", "tier", "module", "name", "detail", "old", "new", "reason",
                ])
        }
        #expect(changes[0]["kind"] as? String == "code-removed")
        #expect(changes[0]["allowed"] as? Bool == true)
        #expect(changes[0]["tier"] as? String == "module")
        #expect(changes[1]["new"] as? String == "Declined \u{1B}[31m\u{202E}.", "JSON carries the text itself")
        #expect(result.output.contains("\\u001b[31m"))
        #expect((report["summary"] as? [String: Int]) == ["changes": 2, "breaking": 0, "allowed": 1, "compatible": 1])
        // Lines escape what a terminal would not show.
        let text = try Self.diff(new)
        #expect(text.output.contains(#""Declined \u{1B}[31m\u{202E}.""#))
        #expect(!text.output.contains("\u{1B}"))
    }

    @Test("changes are sorted by code whatever the order of the file")
    func sorted() throws {
        var new = Self.shop
        new.base[0].message.english = "x"
        new.modules[1].codes[0].message.english = "y"
        new.modules[0].codes[0].message.english = "z"
        new.success.message.english = "Fine"
        let codes = try Self.changes(try Self.diff(new, options: ["--json"])).map { $0["code"] as? Int64 }
        #expect(codes == [0, 1001, 2001, 11001])
    }

    @Test("unreadable or invalid catalogs: every problem located as check reports it, status 2, no report")
    func badInput() throws {
        let valid = try CatalogFileWriter.temporaryFile(Self.shop, name: "valid.json")
        let missing = try ErrcatRunner.run(["diff", "/nonexistent/old.json", valid.path])
        #expect(missing.status == 2)
        #expect(missing.output.isEmpty)
        #expect(
            missing.errorLines.first == "errcat: cannot read catalog /nonexistent/old.json: No such file or directory")
        #expect(missing.errorLines.last == "errcat diff: cannot compare: a catalog cannot be read or has problems")

        let invalidJSON = try ErrcatRunner.temporaryFile(Data("{\n  \"format\": \n}".utf8), name: "invalid.json")
        let notJSON = try ErrcatRunner.run(["diff", valid.path, invalidJSON.path])
        #expect(notJSON.status == 2)
        #expect(notJSON.output.isEmpty)
        #expect(
            notJSON.errorLines.first?.hasPrefix("\(invalidJSON.path):3:1: error: invalid JSON") == true,
            "\(notJSON.errors)")

        let broken = try ErrcatRunner.temporaryFile(Data(CheckTests.broken.utf8), name: "broken.json")
        let check = try ErrcatRunner.run(["check", broken.path])
        let result = try ErrcatRunner.run(["diff", broken.path, valid.path])
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
        let located = result.errorLines.filter { $0.contains(": error: ") }
        #expect(located == check.errorLines.filter { $0.contains(": error: ") }, "the same problems as check, located")
        #expect(located.count == CheckTests.expectedProblems.count)
    }

    @Test("command-line mistakes are usage errors (status 2); one catalog may come from standard input")
    func usage() throws {
        for arguments in [["diff"], ["diff", "catalog/default.json"], ["diff", "a", "b", "c"], ["diff", "-", "-"]] {
            let result = try ErrcatRunner.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.errors.contains("USAGE: errcat diff"), "\(arguments)")
        }
        let stdin = try ErrcatRunner.run(
            ["diff", "-", "catalog/default.json"],
            stdin: try Data(contentsOf: URL(fileURLWithPath: "catalog/default.json")))
        #expect(stdin.status == 0)
        #expect(stdin.output == "no changes\n")
        let help = try ErrcatRunner.run(["diff", "--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("EXIT STATUS: 0 only compatible"))
        let top = try ErrcatRunner.run(["--help"])
        #expect(top.output.contains("diff OLD.json NEW.json"))
    }
}
