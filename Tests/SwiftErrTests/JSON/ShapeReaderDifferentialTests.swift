// ShapeReader against a reference: random JSON documents (JSONPathLookupTests' trees, written with
// random whitespace and escapes) read in random shapes — a code path, fallback paths, a namespace,
// the second identifier, message and payload, each failure rule, a default code — and compared,
// part by part and error by error, with the same rules applied to the tree itself.

import SwiftErrCore
import Testing

@testable import SwiftErr

@Suite("ShapeReader: every part of a shape read from random documents, against a walk of the tree")
struct ShapeReaderDifferentialTests {
    typealias Value = JSONPathLookupTests.Value

    /// What a reading says, in a form both sides give.
    struct Expected: Equatable, CustomStringConvertible {
        var code: ShapeReading.Code?
        var codeIsDefault = false
        var namespace: [UInt8]?
        var secondary: [UInt8]?
        var message: String?
        var hasPayload = false
        var isFailure = false

        init() {}

        init(_ reading: ShapeReading) {
            code = reading.code
            codeIsDefault = reading.codeIsDefault
            namespace = reading.namespace
            secondary = reading.secondary
            message = reading.message
            hasPayload = reading.payload != nil
            isFailure = reading.isFailure
        }

        var description: String {
            "code \(String(describing: code)) (default \(codeIsDefault)), namespace \(String(describing: namespace)), "
                + "secondary \(String(describing: secondary)), message \(String(describing: message)), "
                + "payload \(hasPayload), failure \(isFailure)"
        }
    }

    /// The reference: the shape's rules applied to the tree, in the reader's order (the code, then
    /// each fallback while none is found, the namespace, the second identifier, the message, the
    /// payload, the failure rule, the default code).
    static func reference(
        _ document: Value, _ shape: ShapeDefinition, status: Int?
    ) -> Result<Expected, ShapeReading.Failure> {
        func at(_ location: ShapeDefinition.Location?) -> Value? {
            guard case .body(let steps)? = location else { return nil }
            return document.at(steps[...])
        }
        func code(_ value: Value?) -> Result<ShapeReading.Code?, ShapeReading.Failure> {
            switch (shape.codeType, value) {
            case (_, nil), (_, .null?): return .success(nil)
            case (.integer, .integer(let number)?): return .success(.integer(number))
            case (.string, .string(let text)?): return .success(.string(Array(text.utf8)))
            case (_, let other?): return .failure(.wrongKind(what: "the code", found: other.kind))
            }
        }
        func string(_ location: ShapeDefinition.Location?, what: String) -> Result<[UInt8]?, ShapeReading.Failure> {
            switch at(location) {
            case nil, .null?: return .success(nil)
            case .string(let text)?: return .success(Array(text.utf8))
            case let other?: return .failure(.wrongKind(what: what, found: other.kind))
            }
        }
        return Result { () throws(ShapeReading.Failure) -> Expected in
            var expected = Expected()
            expected.code = try code(at(shape.code)).get()
            for fallback in shape.fallbackCodes where expected.code == nil {
                expected.code = try code(at(fallback)).get()
            }
            if case .location(let location)? = shape.namespace {
                expected.namespace = try string(location, what: "the namespace").get()
            }
            switch at(shape.secondary) {
            case nil, .null?: break
            case .string(let text)?: expected.secondary = Array(text.utf8)
            case .integer(let number)?: expected.secondary = Array(String(number).utf8)
            case let other?: throw .wrongKind(what: "the second identifier", found: other.kind)
            }
            expected.message = try string(shape.message, what: "the message").get().map {
                String(decoding: $0, as: UTF8.self)
            }
            expected.hasPayload = at(shape.payload) != nil
            switch shape.failure {
            case .status:
                expected.isFailure = status.map { $0 >= 400 } ?? (expected.code != nil)
            case .code:
                expected.isFailure = expected.code != nil && expected.code != .integer(0)
            case .flag(let location, let failsWhen):
                switch at(location) {
                case nil: throw .flagMissing
                case .bool(let flag)?: expected.isFailure = flag == failsWhen
                case let other?: throw .wrongKind(what: "the failure flag", found: other.kind)
                }
            case .present(let location):
                if let value = at(location), value.kind != .null { expected.isFailure = true }
            }
            if expected.code == nil, expected.isFailure, let fixed = shape.defaultCode {
                switch fixed {
                case .integer(let number): expected.code = .integer(number)
                case .string(let text): expected.code = .string(Array(text.utf8))
                }
                expected.codeIsDefault = true
            }
            return expected
        }
    }

    /// A random shape for `document`: its paths mostly along the tree, now and then beside it; the
    /// code's type, three times in four, that of the value at the code's path or at a fallback's.
    static func randomShape(for document: Value, _ random: inout SplitMix64) -> ShapeDefinition {
        func path() -> ShapeDefinition.Location { .body(JSONPathLookupTests.randomPath(in: document, &random)) }
        func maybe() -> ShapeDefinition.Location? { random.below(3) == 0 ? path() : nil }
        let code = path()
        let fallbackCodes = (0..<Int(random.below(3))).map { _ in path() }
        let places = [code] + fallbackCodes
        var codeType: ShapeDefinition.CodeType = random.below(2) == 0 ? .integer : .string
        if random.below(4) != 0, case .body(let steps) = places[Int(random.below(UInt64(places.count)))] {
            switch document.at(steps[...]) {
            case .integer?: codeType = .integer
            case .string?: codeType = .string
            default: break
            }
        }
        let failure: ShapeDefinition.Failure
        switch random.below(4) {
        case 0: failure = .status
        case 1: failure = .code
        case 2: failure = .flag(path(), failsWhen: random.below(2) == 0)
        default: failure = .present(path())
        }
        var defaultCode: ShapeDefinition.CodeValue? = nil
        if failure != .code, random.below(2) == 0 {
            defaultCode = codeType == .integer ? .integer(-7) : .string("about:blank")
        }
        return ShapeDefinition(
            name: "random", code: code, fallbackCodes: fallbackCodes,
            codeType: codeType, defaultCode: defaultCode,
            namespace: codeType == .string && random.below(2) == 0 ? .location(path()) : nil,
            secondary: maybe(), message: maybe(), payload: maybe(), failure: failure)
    }

    @Test("random documents and shapes: the same parts, the same errors, as the tree says", arguments: 0..<24)
    func againstTheTree(seed: UInt64) throws {
        var compared = 0
        var withCode = 0
        var fromFallback = 0
        var defaulted = 0
        var failed = 0
        try JSONPathLookupTests.eachDocument(seed: 0x5A4E + seed) { document, text, random in
            let shape = Self.randomShape(for: document, &random)
            let status: Int? = [nil, 200, 404][Int(random.below(3))]
            let want = Self.reference(document, shape, status: status)
            let got = Array(text.utf8).withUnsafeBytes { raw in
                Result { () throws(ShapeReading.Failure) in
                    Expected(try ShapeReading(raw, shape: shape, status: status, successCode: 0))
                }
            }
            #expect(got == want, "\(text) in \(shape), status \(String(describing: status))")
            compared += 1
            if case .success(let reading) = want {
                if reading.code != nil && !reading.codeIsDefault { withCode += 1 }
                if reading.codeIsDefault { defaulted += 1 }
                if case .body(let steps)? = shape.code, document.at(steps[...]) == nil, reading.code != nil,
                    !reading.codeIsDefault
                {
                    fromFallback += 1
                }
            } else {
                failed += 1
            }
        }
        // The draw reaches every rule, not only the easy ones (each seed's counts are fixed: at
        // least 16 codes found, 3 of them by a fallback, 10 defaults and 175 errors).
        #expect(compared == 500)
        #expect(withCode >= 10 && fromFallback >= 1 && defaulted >= 5 && failed >= 100)
    }
}
