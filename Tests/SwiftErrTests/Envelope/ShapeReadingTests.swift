// Reading bodies in a catalog's shapes: Stripe's, Slack's, Google's AIP-193 and RFC 9457 bodies
// classified with a catalog of string codes; and hostile bodies, each with a clear outcome.

import Foundation
import SwiftErrCore
import Testing

@testable import SwiftErr

@Suite("ShapeReading: bodies read in a catalog's shapes")
struct ShapeReadingTests {
    static let errorInfo = ShapeDefinition.PathStep.firstWhere(
        key: "@type", equals: "type.googleapis.com/google.rpc.ErrorInfo")
    static let stripe = ShapeDefinition(
        name: "stripe", code: .body([.key("error"), .key("code")]), codeType: .string,
        namespace: .location(.body([.key("error"), .key("type")])),
        secondary: .body([.key("error"), .key("decline_code")]), message: .body([.key("error"), .key("message")]),
        payload: .body([.key("error")]), failure: .status)
    static let slack = ShapeDefinition(
        name: "slack", code: .body([.key("error")]), codeType: .string,
        failure: .flag(.body([.key("ok")]), failsWhen: false))
    static let aip = ShapeDefinition(
        name: "aip", code: .body([.key("error"), .key("details"), errorInfo, .key("reason")]), codeType: .string,
        namespace: .location(.body([.key("error"), .key("details"), errorInfo, .key("domain")])),
        secondary: .body([.key("error"), .key("status")]), message: .body([.key("error"), .key("message")]),
        failure: .present(.body([.key("error")])))
    static let problem = ShapeDefinition(
        name: "problem", contentType: "application/problem+json", code: .body([.key("type")]), codeType: .string,
        namespace: .codePrefix, message: .body([.key("detail")]), failure: .status)
    static let envelope = ShapeDefinition(
        name: "envelope", code: .body([.key("ret")]), message: .body([.key("msg")]), payload: .body([.key("data")]),
        failure: .code)

    static let catalog: Catalog = {
        func entry(_ code: Int64, _ name: String, _ string: String, in namespace: String? = nil) -> EntryDefinition {
            EntryDefinition(
                code: code, name: name, string: string, namespace: namespace, message: LocalizedText(english: name))
        }
        return try! Catalog(
            CatalogDefinition(
                name: "backends", success: EntryDefinition(code: 0, name: "ok", message: LocalizedText(english: "OK")),
                base: [entry(1, "invalidAuth", "invalid_auth"), entry(2, "notAuthed", "not_authed")],
                modules: [
                    ModuleDefinition(
                        name: "card", title: LocalizedText(english: "Card"), ranges: [100...199],
                        namespaces: ["card_error"],
                        codes: [entry(101, "cardDeclined", "card_declined", in: "card_error")]),
                    ModuleDefinition(
                        name: "google", title: LocalizedText(english: "Google"), ranges: [200...299],
                        namespaces: ["googleapis.com"],
                        codes: [entry(201, "serviceDisabled", "SERVICE_DISABLED", in: "googleapis.com")]),
                    ModuleDefinition(
                        name: "probs", title: LocalizedText(english: "Problems"), ranges: [300...399],
                        namespaces: ["https://example.com/probs/"],
                        codes: [entry(301, "outOfCredit", "out-of-credit", in: "https://example.com/probs/")]),
                    ModuleDefinition(
                        name: "shop", title: LocalizedText(english: "Shop"), ranges: [11000...11999],
                        codes: [
                            EntryDefinition(code: 11001, name: "soldOut", message: LocalizedText(english: "Sold out"))
                        ]),
                ],
                shapes: [stripe, slack, aip, problem, envelope]))
    }()

    static func read(_ body: String, _ shape: ShapeDefinition, status: Int? = nil) throws(ShapeReading.Failure)
        -> ShapeReading
    {
        try read(Array(body.utf8), shape, status: status)
    }

    static func read(_ bytes: [UInt8], _ shape: ShapeDefinition, status: Int? = nil) throws(ShapeReading.Failure)
        -> ShapeReading
    {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(ShapeReading.Failure) in
                try ShapeReading(raw, shape: shape, status: status, successCode: 0)
            }
        }
        return try result.get()
    }

    /// The code a body classifies to (the entry's integer code), "module N unrecognised", or "unknown".
    static func outcome(_ body: String, _ shape: ShapeDefinition, status: Int? = nil) throws -> String {
        let classification = try read(body, shape, status: status).classification(in: catalog, shape: shape)
        if let index = classification.entryIndex { return String(catalog.code(at: index)!) }
        if classification.tier == .module { return "module \(classification.moduleID) unrecognised" }
        return classification.tier.name
    }

    @Test("Stripe: code in the namespace of its type, the decline code kept, the error object as payload")
    func stripeBody() throws {
        let body =
            #"{"error": {"type": "card_error", "code": "card_declined", "decline_code": "insufficient_funds", "message": "Your card has insufficient funds."}}"#
        let reading = try Self.read(body, Self.stripe, status: 402)
        #expect(reading.code == .string(Array("card_declined".utf8)))
        #expect(reading.namespace == Array("card_error".utf8))
        #expect(reading.secondary == Array("insufficient_funds".utf8))
        #expect(reading.message == "Your card has insufficient funds.")
        #expect(reading.isFailure)
        let payload = try #require(reading.payload)
        #expect(String(decoding: Array(body.utf8)[payload], as: UTF8.self).hasPrefix(#"{"type": "card_error""#))
        #expect(try Self.outcome(body, Self.stripe, status: 402) == "101")
        #expect(
            try Self.outcome(body.replacingOccurrences(of: "card_declined", with: "expired_card"), Self.stripe)
                == "module 1 unrecognised")
        #expect(
            try Self.outcome(body.replacingOccurrences(of: "card_error", with: "api_error"), Self.stripe) == "unknown")
        #expect(try Self.outcome(#"{"id": "ch_1"}"#, Self.stripe, status: 200) == "0")
    }

    @Test("Slack: the ok flag tells failure, with HTTP 200; the code is in the catalog's own namespace")
    func slackBody() throws {
        #expect(try Self.outcome(#"{"ok": false, "error": "invalid_auth"}"#, Self.slack, status: 200) == "1")
        #expect(try Self.outcome(#"{"ok": true, "channel": "C1"}"#, Self.slack, status: 200) == "0")
        #expect(try Self.outcome(#"{"ok": false, "error": "channel_not_found"}"#, Self.slack) == "unknown")
        #expect(throws: ShapeReading.Failure.flagMissing) { try Self.read(#"{"error": "invalid_auth"}"#, Self.slack) }
        #expect(throws: ShapeReading.Failure.wrongKind(what: "the failure flag", found: .string)) {
            try Self.read(#"{"ok": "false", "error": "invalid_auth"}"#, Self.slack)
        }
    }

    @Test("AIP-193: the ErrorInfo among the details, whatever its position; the status kept as second identifier")
    func aipBody() throws {
        let body = #"""
            {"error": {"code": 403, "message": "API disabled", "status": "PERMISSION_DENIED", "details": [
              {"@type": "type.googleapis.com/google.rpc.Help", "links": []},
              {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "SERVICE_DISABLED", "domain": "googleapis.com",
               "metadata": {"service": "x.googleapis.com"}}]}}
            """#
        let reading = try Self.read(body, Self.aip)
        #expect(reading.secondary == Array("PERMISSION_DENIED".utf8))
        #expect(reading.message == "API disabled")
        #expect(try Self.outcome(body, Self.aip) == "201")
        #expect(try Self.outcome(#"{"error": {"code": 500, "status": "INTERNAL"}}"#, Self.aip) == "unknown")
        #expect(try Self.outcome(#"{"name": "projects/p"}"#, Self.aip) == "0")
    }

    @Test("Problem Details: the type URI's longest catalog namespace is the module, the rest the code")
    func problemBody() throws {
        let body =
            #"{"type": "https://example.com/probs/out-of-credit", "title": "No credit", "status": 403, "detail": "Balance 30, cost 50"}"#
        #expect(try Self.outcome(body, Self.problem, status: 403) == "301")
        #expect(try Self.read(body, Self.problem).message == "Balance 30, cost 50")
        #expect(
            try Self.outcome(body.replacingOccurrences(of: "out-of-credit", with: "gone"), Self.problem, status: 403)
                == "module 3 unrecognised")
        #expect(try Self.outcome(#"{"type": "about:blank", "status": 404}"#, Self.problem, status: 404) == "unknown")
    }

    @Test("fallback codes: tried in order when the code's own place has none, each with the code's type")
    func fallbackCodes() throws {
        var shape = Self.aip
        shape.fallbackCodes = [.body([.key("error"), .key("reason")]), .body([.key("error"), .key("status")])]
        // The ErrorInfo's reason first, even with both fallbacks present.
        let both =
            #"{"error": {"status": "INTERNAL", "reason": "invalid_auth", "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "SERVICE_DISABLED", "domain": "googleapis.com"}]}}"#
        #expect(try Self.outcome(both, shape) == "201")
        // No ErrorInfo: the first fallback that is there, in the catalog's own namespace.
        #expect(try Self.outcome(#"{"error": {"status": "not_authed", "reason": "invalid_auth"}}"#, shape) == "1")
        #expect(try Self.outcome(#"{"error": {"status": "not_authed"}}"#, shape) == "2")
        #expect(try Self.outcome(#"{"error": {"status": "not_authed", "reason": null}}"#, shape) == "2")
        #expect(try Self.read(#"{"error": {"status": "INTERNAL"}}"#, shape).codeIsDefault == false)
        // A fallback of the wrong type is an error, as the code's own would be.
        #expect(throws: ShapeReading.Failure.wrongKind(what: "the code", found: .integer)) {
            try Self.read(#"{"error": {"reason": 7}}"#, shape)
        }
        // Nothing anywhere: a failure without a code, unknown.
        #expect(try Self.outcome(#"{"error": {"code": 500}}"#, shape) == "unknown")
        // An integer shape's fallback holds an integer.
        var envelope = Self.envelope
        envelope.fallbackCodes = [.body([.key("code")])]
        #expect(try Self.outcome(#"{"code": 11001}"#, envelope) == "11001")
        #expect(try Self.outcome(#"{"ret": 0, "code": 11001}"#, envelope) == "0")
    }

    @Test("a default code: a failure without one is the shape's default; a success or a code found is not")
    func defaultCode() throws {
        var problem = Self.problem
        problem.defaultCode = .string("invalid_auth")
        let untyped = #"{"title": "Not Found", "status": 404}"#
        let reading = try Self.read(untyped, problem, status: 404)
        #expect(reading.code == .string(Array("invalid_auth".utf8)) && reading.codeIsDefault)
        #expect(try Self.outcome(untyped, problem, status: 404) == "1")
        // Not a failure (a 200, or a log line without a status): no default.
        #expect(try Self.outcome(untyped, problem, status: 200) == "0")
        #expect(try Self.read(untyped, problem).code == nil)
        // A type found wins over the default.
        #expect(
            try Self.outcome(#"{"type": "https://example.com/probs/out-of-credit"}"#, problem, status: 403) == "301")
        #expect(try Self.read(#"{"type": null}"#, problem, status: 500).codeIsDefault)
        // An integer default for an integer shape whose failure is a flag.
        let flagged = ShapeDefinition(
            name: "flagged", code: .body([.key("ret")]), defaultCode: .integer(11001),
            failure: .flag(.body([.key("error")]), failsWhen: true))
        #expect(try Self.outcome(#"{"error": true, "reason": "boom"}"#, flagged) == "11001")
        #expect(try Self.outcome(#"{"error": true, "ret": 1}"#, flagged) == "1")
        #expect(try Self.outcome(#"{"error": false}"#, flagged) == "0")
    }

    @Test("the integer envelope is a shape too: a code other than success is a failure")
    func envelopeBody() throws {
        #expect(try Self.outcome(#"{"ret": 11001, "msg": "sold out"}"#, Self.envelope) == "11001")
        #expect(try Self.outcome(#"{"ret": 0, "data": {}}"#, Self.envelope) == "0")
        #expect(try Self.outcome(#"{"ret": 11500}"#, Self.envelope) == "module 4 unrecognised")
    }

    @Test("hostile bodies: a clear outcome for each, never a crash")
    func hostile() throws {
        // Nesting past the scanner's limit, before and around the code.
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: ShapeReading.Failure.self) { try Self.read(deep, Self.slack) }
        let prefix = #"{"ok": false, "error": "invalid_auth", "x": "#
        let deepObject = prefix + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}"
        // The object is level 0: the array opened at level 512 is the one refused.
        let refused = prefix.utf8.count + 511
        #expect(
            throws: ShapeReading.Failure.notJSON(JSONSyntaxError(reason: .nestingTooDeep(limit: 512), offset: refused))
        ) {
            try Self.read(deepObject, Self.slack)
        }
        // A large document with the code at its end.
        let filler = String(
            repeating: #"{"k": "vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv", "n": [1, 2, 3]}, "#, count: 100_000)
        let large = #"{"filler": ["# + filler + #"null], "ok": false, "error": "not_authed"}"#
        #expect(large.utf8.count > 7_000_000)
        #expect(try Self.outcome(large, Self.slack) == "2")
        // Escapes in keys and values.
        #expect(try Self.outcome(#"{"\u006fk": false, "err\u006fr": "inv\u0061lid_auth"}"#, Self.slack) == "1")
        // Invalid UTF-8 inside a string, and trailing bytes after the document.
        let invalid = Array(#"{"ok": false, "error": "x"#.utf8) + [0xFF] + Array(#""}"#.utf8)
        #expect(throws: ShapeReading.Failure.self) { try Self.read(invalid, Self.slack) }
        #expect(throws: ShapeReading.Failure.self) {
            try Self.read(#"{"ok": false, "error": "invalid_auth"} x"#, Self.slack)
        }
        // A code of a million bytes: read, and unknown (longer than a string code can be).
        let million = String(repeating: "a", count: 1_000_000)
        #expect(
            try Self.read(#"{"ok": false, "error": ""# + million + #""}"#, Self.slack).code
                == .string(Array(million.utf8)))
        #expect(try Self.outcome(#"{"ok": false, "error": ""# + million + #""}"#, Self.slack) == "unknown")
        // A code of the wrong type, an integer code out of range, a repeated key (the first counts).
        #expect(throws: ShapeReading.Failure.wrongKind(what: "the code", found: .integer)) {
            try Self.read(#"{"ok": false, "error": 11001}"#, Self.slack)
        }
        #expect(throws: ShapeReading.Failure.wrongKind(what: "the code", found: .string)) {
            try Self.read(#"{"ret": "11001"}"#, Self.envelope)
        }
        #expect(throws: ShapeReading.Failure.codeOutOfRange) {
            try Self.read(#"{"ret": 99999999999999999999}"#, Self.envelope)
        }
        #expect(try Self.outcome(#"{"ok": false, "error": "not_authed", "error": "invalid_auth"}"#, Self.slack) == "2")
        #expect(try Self.read(#"{"ok": false, "error": null}"#, Self.slack).code == nil)
        #expect(throws: ShapeReading.Failure.notABodyShape(.status)) {
            try Self.read("{}", ShapeDefinition(name: "plain", kind: .status, code: nil, failure: .status))
        }
    }
}
