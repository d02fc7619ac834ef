// A swifterr-catalog/3 file's shapes, namespaces and string codes: read exactly as written, built
// into a catalog whose string lookups give each entry's integer classification, and every problem
// of the new parts reported at its place, one fault at a time.

import Foundation
import SwiftErr
import Testing

@testable import SwiftErrCatalogFile

@Suite("Catalog files: shapes, namespaces and string codes (format 3)")
struct ShapesAndStringCodesFileTests {
    static let fixture = "Tests/Fixtures/shapes-catalog.json"

    static func fixtureJSON() throws -> [String: Any] {
        let data = Data(try RepositoryFiles.bytes(fixture))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func bytes(_ object: [String: Any]) throws -> [UInt8] {
        Array(try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted]))
    }

    /// The problems of `object` read as a catalog file, or none.
    static func problems(_ object: [String: Any]) throws -> [CatalogFileProblem] {
        let data = try bytes(object)
        do {
            _ = try CatalogDefinition(json: data)
            return []
        } catch {
            return error.problems
        }
    }

    @Test("the shapes read exactly as written, in order")
    func shapes() throws {
        let definition = try CatalogDefinition(json: try RepositoryFiles.bytes(Self.fixture))
        let errorInfo = ShapeDefinition.PathStep.firstWhere(
            key: "@type", equals: "type.googleapis.com/google.rpc.ErrorInfo")
        #expect(
            definition.shapes == [
                ShapeDefinition(
                    name: "stripe", code: .body([.key("error"), .key("code")]), codeType: .string,
                    namespace: .location(.body([.key("error"), .key("type")])),
                    secondary: .body([.key("error"), .key("decline_code")]),
                    message: .body([.key("error"), .key("message")]), payload: .body([.key("error")]),
                    failure: .status),
                ShapeDefinition(
                    name: "slack", code: .body([.key("error")]), codeType: .string,
                    failure: .flag(.body([.key("ok")]), failsWhen: false)),
                ShapeDefinition(
                    name: "aip", code: .body([.key("error"), .key("details"), errorInfo, .key("reason")]),
                    fallbackCodes: [.body([.key("error"), .key("status")])], codeType: .string,
                    namespace: .location(.body([.key("error"), .key("details"), errorInfo, .key("domain")])),
                    failure: .present(.body([.key("error")]))),
                ShapeDefinition(
                    name: "problem", contentType: "application/problem+json", code: .body([.key("type")]),
                    codeType: .string, defaultCode: .string("about:blank"), namespace: .codePrefix,
                    message: .body([.key("detail")]), failure: .status),
                ShapeDefinition(name: "plain", kind: .status, code: nil, failure: .status),
                ShapeDefinition(name: "rpc", kind: .grpc, code: nil, failure: .status),
            ])
    }

    @Test("string codes take their module's first namespace unless they name one; \"\" is the catalog's own")
    func namespaces() throws {
        let definition = try CatalogDefinition(json: try RepositoryFiles.bytes(Self.fixture))
        #expect(definition.base.map(\.string) == ["invalid_auth"])
        #expect(definition.base.map(\.namespace) == [nil])
        let card = try #require(definition.modules.first)
        #expect(card.namespaces == ["card_error"])
        #expect(card.codes.map(\.string) == ["card_declined", "own"])
        #expect(card.codes.map(\.namespace) == ["card_error", nil])
        #expect(definition.stringEntries.map(\.code) == [1, 101, 102])
    }

    @Test("the built catalog classifies each string code as its entry's integer code")
    func builtCatalog() throws {
        let definition = try CatalogDefinition(json: try RepositoryFiles.bytes(Self.fixture))
        let catalog = try Catalog(definition)
        #expect(catalog.stringCodeCount == 3)
        #expect(catalog.shapes == definition.shapes)
        for entry in definition.stringEntries {
            let string = try #require(entry.string)
            #expect(
                catalog.classify(string: string, namespace: entry.namespace) == catalog.classify(entry.code),
                "\(string)")
        }
        let unlisted = catalog.classify(string: "expired_card", namespace: "card_error")
        #expect(unlisted.tier == .module && unlisted.isUnrecognisedModuleCode && unlisted.moduleID == 1)
        #expect(catalog.classify(string: "card_declined").tier == .unknown)
        #expect(catalog.classify(string: "card_declined", namespace: "api_error").tier == .unknown)
        #expect(catalog.classify(string: "Card_declined", namespace: "card_error").isExact == false)
        #expect(catalog.classify(string: "own", namespace: "").entryIndex.flatMap(catalog.code(at:)) == 102)
        // Reading the built catalog back keeps the string codes, namespaces and shapes.
        let back = catalog.definition
        #expect(back.stringEntries.map(\.string) == definition.stringEntries.map(\.string))
        #expect(back.stringEntries.map(\.namespace) == definition.stringEntries.map(\.namespace))
        #expect(back.modules.map(\.namespaces) == definition.modules.map(\.namespaces))
        #expect(back.shapes == definition.shapes)
    }

    /// One fault planted in the fixture: what it changes, and the start of the one problem it must
    /// cause.
    struct Fault: CustomTestStringConvertible, Sendable {
        var name: String
        var plant: @Sendable (inout [String: Any]) -> Void
        var expected: String
        var testDescription: String { name }
    }

    static func shape(_ index: Int, _ change: @escaping @Sendable (inout [String: Any]) -> Void)
        -> @Sendable (inout [String: Any]) -> Void
    {
        { root in
            var shapes = root["shapes"] as! [[String: Any]]
            change(&shapes[index])
            root["shapes"] = shapes
        }
    }

    static func module(_ change: @escaping @Sendable (inout [String: Any]) -> Void)
        -> @Sendable (inout [String: Any]) -> Void
    {
        { root in
            var modules = root["modules"] as! [[String: Any]]
            change(&modules[0])
            root["modules"] = modules
        }
    }

    static func firstBase(_ change: @escaping @Sendable (inout [String: Any]) -> Void)
        -> @Sendable (inout [String: Any]) -> Void
    {
        { root in
            var base = root["base"] as! [[String: Any]]
            change(&base[0])
            root["base"] = base
        }
    }

    static let faults: [Fault] = [
        Fault(
            name: "two shapes no response tells apart",
            plant: { root in
                var shapes = root["shapes"] as! [[String: Any]]
                var copy = shapes[0]
                copy["name"] = "stripeAgain"
                copy["message"] = ["path": ["message"]]
                shapes.append(copy)
                root["shapes"] = shapes
            },
            expected: "shape \"stripeAgain\" is ambiguous: no response can tell it from shape \"stripe\""),
        Fault(
            name: "a shape declared twice",
            plant: shape(1) { $0["name"] = "stripe" }, expected: "shape \"stripe\" is declared twice"),
        Fault(
            name: "a shape name that is not an identifier",
            plant: shape(1) { $0["name"] = "slack web" }, expected: "shape \"slack web\" name is not an identifier"),
        Fault(
            name: "an unknown kind", plant: shape(4) { $0["kind"] = "html" }, expected: "unknown kind \"html\""),
        Fault(
            name: "a JSON shape without a code", plant: shape(1) { $0["code"] = nil },
            expected: "shape \"slack\" has no \"code\""),
        Fault(
            name: "a JSON shape without a failure rule", plant: shape(1) { $0["failure"] = nil },
            expected: "shape \"slack\" has no \"failure\""),
        Fault(
            name: "a status shape with a code", plant: shape(4) { $0["code"] = ["header": "x-code"] },
            expected: "shape \"plain\" is of kind \"status\", whose protocol says where the code is"),
        Fault(
            name: "an empty path", plant: shape(1) { $0["code"] = ["path": [Any]()] },
            expected: "the \"path\" of the \"code\" of shape \"slack\" is empty"),
        Fault(
            name: "a path too deep", plant: shape(1) { $0["code"] = ["path": Array(repeating: "a", count: 33)] },
            expected: "the \"path\" of the \"code\" of shape \"slack\" has 33 steps, at most 32"),
        Fault(
            name: "a negative index", plant: shape(1) { $0["code"] = ["path": ["errors", -1]] },
            expected: "a step of the \"path\" of the \"code\" of shape \"slack\" is not an array index"),
        Fault(
            name: "a location with both path and header",
            plant: shape(1) { $0["message"] = ["path": ["m"], "header": "x-m"] },
            expected: "the \"message\" of shape \"slack\" has both \"path\" and \"header\""),
        Fault(
            name: "a header name with a space", plant: shape(1) { $0["message"] = ["header": "x m"] },
            expected: "the \"header\" of the \"message\" of shape \"slack\", \"x m\", is not an HTTP header name"),
        Fault(
            name: "a content type with parameters",
            plant: shape(3) { $0["contentType"] = "application/problem+json; charset=utf-8" },
            expected: "the \"contentType\" of shape \"problem\""),
        Fault(
            name: "a namespace on integer codes", plant: shape(0) { $0["codeType"] = "integer" },
            expected: "shape \"stripe\" has a \"namespace\" but its codes are integers"),
        Fault(
            name: "fallback codes that are not a list",
            plant: shape(2) { $0["fallbackCodes"] = ["path": ["error", "status"]] },
            expected: "the \"fallbackCodes\" of shape \"aip\" must be an array, found an object"),
        Fault(
            name: "a malformed fallback code",
            plant: shape(2) { $0["fallbackCodes"] = [["path": ["error", "status"]], ["path": [Any]()]] },
            expected: "the \"path\" of \"fallbackCodes\"[1] of shape \"aip\" is empty"),
        Fault(
            name: "fallback codes on a status shape",
            plant: shape(4) { $0["fallbackCodes"] = [["header": "x-code"]] },
            expected:
                "shape \"plain\" is of kind \"status\", whose protocol says where the code is: it has no \"fallbackCodes\""
        ),
        Fault(
            name: "an integer default code for string codes", plant: shape(3) { $0["defaultCode"] = 404 },
            expected: "the \"defaultCode\" of shape \"problem\" must be a string"),
        Fault(
            name: "an empty default code", plant: shape(3) { $0["defaultCode"] = "" },
            expected: "the \"defaultCode\" of shape \"problem\" is empty"),
        Fault(
            name: "a default code too long",
            plant: shape(3) { $0["defaultCode"] = String(repeating: "a", count: 65_536) },
            expected: "the \"defaultCode\" of shape \"problem\" is 65536 bytes long, at most 65535"),
        Fault(
            name: "a string default code for integer codes",
            plant: shape(1) {
                $0["codeType"] = "integer"
                $0["defaultCode"] = "x"
            },
            expected: "the \"defaultCode\" of shape \"slack\" must be an integer"),
        Fault(
            name: "a default code beyond 64 bits",
            plant: shape(1) {
                $0["codeType"] = "integer"
                $0["defaultCode"] = UInt64(10_000_000_000_000_000_000)
            },
            expected:
                "the \"defaultCode\" of shape \"slack\" 10000000000000000000 does not fit in a signed 64-bit integer"),
        Fault(
            name: "a default code that can never apply",
            plant: shape(1) {
                $0["failure"] = "code"
                $0["defaultCode"] = "unknown_error"
            },
            expected: "the \"defaultCode\" of shape \"slack\" can never apply"),
        Fault(
            name: "a flag without failsWhen", plant: shape(1) { $0["failure"] = ["flag": ["path": ["ok"]]] },
            expected: "the \"failure\" of shape \"slack\" has a \"flag\" but no boolean \"failsWhen\""),
        Fault(
            name: "an unknown failure rule", plant: shape(1) { $0["failure"] = "body" },
            expected: "the \"failure\" of shape \"slack\" must be \"status\", \"code\""),
        Fault(
            name: "a string code twice in one namespace",
            plant: module { module in
                var codes = module["codes"] as! [[String: Any]]
                codes[1]["string"] = "card_declined"
                codes[1]["namespace"] = nil
                module["codes"] = codes
            },
            expected: "string code \"card_declined\" appears twice in namespace \"card_error\""),
        Fault(
            name: "a namespace owned by two modules",
            plant: { root in
                var modules = root["modules"] as! [[String: Any]]
                modules.append([
                    "name": "wallet", "ranges": [[200, 299]], "namespaces": ["card_error"], "codes": [Any](),
                ])
                root["modules"] = modules
            },
            expected: "namespace \"card_error\" is owned by module \"wallet\" and by module \"card\""),
        Fault(
            name: "a module's string code in a namespace no module owns",
            plant: module { module in
                var codes = module["codes"] as! [[String: Any]]
                codes[1]["namespace"] = "api_error"
                module["codes"] = codes
            },
            expected: "entry \"own\" of module \"card\" is in namespace \"api_error\", which no module owns"),
        Fault(
            name: "a base string code in a module's namespace",
            plant: firstBase { $0["namespace"] = "card_error" },
            expected: "base entry \"invalidAuth\" is in namespace \"card_error\", which module \"card\" owns"),
        Fault(
            name: "an empty string code",
            plant: firstBase { $0["string"] = "" },
            expected: "the string code of base entry \"invalidAuth\" is empty"),
        Fault(
            name: "a string code of 65,536 bytes",
            plant: firstBase { $0["string"] = String(repeating: "x", count: 65_536) },
            expected: "the string code of base entry \"invalidAuth\" is 65536 bytes long, at most 65535 allowed"),
        Fault(
            name: "a string code that is a number",
            plant: firstBase { $0["string"] = 11001 },
            expected: "the string code of entry \"invalidAuth\" must be a string, found an integer"),
        Fault(
            name: "a namespace without a string code",
            plant: firstBase {
                $0["string"] = nil
                $0["namespace"] = "api_error"
            },
            expected: "base entry \"invalidAuth\" has a \"namespace\" but no \"string\""),
        Fault(
            name: "format 3 keys in a format 2 file",
            plant: { root in
                root["format"] = "swifterr-catalog/2"
                root["shapes"] = nil
                root["base"] = [Any]()
                var modules = root["modules"] as! [[String: Any]]
                modules[0]["codes"] = [Any]()
                root["modules"] = modules
            },
            expected: "\"namespaces\" needs format \"swifterr-catalog/3\""),
    ]

    @Test("each planted fault is one located problem", arguments: faults)
    func fault(_ fault: Fault) throws {
        var root = try Self.fixtureJSON()
        fault.plant(&root)
        let problems = try Self.problems(root)
        #expect(problems.count == 1, "\(problems)")
        let problem = try #require(problems.first)
        #expect(problem.message.hasPrefix(fault.expected), "\(problem.message)")
        #expect(problem.location.line > 1)
    }

    @Test("the fixture itself has no problems")
    func fixtureIsValid() throws {
        #expect(try Self.problems(try Self.fixtureJSON()).isEmpty)
    }
}
