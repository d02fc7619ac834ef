import SwiftErr

// The "shapes" of a swifterr-catalog/3 file: each object read into a ShapeDefinition, every
// problem reported where it is written.
//
//   {"name": "stripe", "kind": "json", "contentType": "application/json",
//    "code": {"path": ["error", "code"]}, "codeType": "string",
//    "fallbackCodes": [{"path": ["error", "type"]}],        (where else the code may be, in order)
//    "defaultCode": "api_error",                           (a failure's code when none is found)
//    "namespace": {"path": ["error", "type"]},            (or "codePrefix")
//    "secondary": {"path": ["error", "decline_code"]},
//    "message": {"path": ["error", "message"]}, "payload": {"path": ["error"]},
//    "failure": "status"}                                  (or "code", {"flag": LOCATION,
//                                                           "failsWhen": false}, {"present": LOCATION})
//
// A location is {"path": [STEP, ...]} or {"header": NAME}; a step is a key (a string), an array
// index (an integer, 0 the first) or {"KEY": "VALUE"}, the first element whose member KEY is VALUE.

extension CatalogFileDecoder {
    /// The longest path a shape may have: deeper documents are refused when read, and no backend's
    /// error sits deeper than a few levels.
    static let maximumPathLength = 32

    /// One shape, or `nil` (reported) when it cannot be used.
    mutating func shape(_ node: JSONNode) -> ShapeDraft? {
        guard
            let members = members(
                of: node, what: "a shape",
                allowed: [
                    "name", "kind", "contentType", "code", "fallbackCodes", "codeType", "defaultCode", "namespace",
                    "secondary", "message", "payload", "failure",
                ],
                required: ["name"])
        else { return nil }
        var usable = true
        var name = ""
        var nameOffset = node.offset
        if let value = members["name"], let text = string(value, what: "a shape \"name\"") {
            name = text
            nameOffset = value.offset
        } else {
            usable = false
        }
        let label = name.isEmpty ? "a shape" : "shape \(DisplayText.quoted(name))"
        var kind = ShapeDefinition.Kind.json
        if let value = members["kind"] {
            // The rest of a shape depends on its kind: an unusable kind is its one problem.
            guard let text = string(value, what: "the \"kind\" of \(label)") else { return nil }
            guard let known = ShapeDefinition.Kind(rawValue: text) else {
                report(
                    value.offset,
                    "unknown kind \(DisplayText.quoted(text)) of \(label) (expected \"json\", \"status\" or \"grpc\")")
                return nil
            }
            kind = known
        }
        var contentType: String? = nil
        if let value = members["contentType"], let text = string(value, what: "the \"contentType\" of \(label)") {
            if Self.isMediaType(text) {
                contentType = text
            } else {
                report(
                    value.offset,
                    "the \"contentType\" of \(label), \(DisplayText.quoted(text)), is not a media type (type/subtype, without parameters)"
                )
                usable = false
            }
        }
        var codeType = ShapeDefinition.CodeType.integer
        if let value = members["codeType"], let text = string(value, what: "the \"codeType\" of \(label)") {
            if let known = ShapeDefinition.CodeType(rawValue: text) {
                codeType = known
            } else {
                report(
                    value.offset,
                    "unknown codeType \(DisplayText.quoted(text)) of \(label) (expected \"integer\" or \"string\")")
                usable = false
            }
        }
        func optionalLocation(_ key: String) -> (ShapeDefinition.Location?, Bool) {
            guard let value = members[key] else { return (nil, true) }
            let location = self.location(value, what: "the \"\(key)\" of \(label)")
            return (location, location != nil)
        }
        let (code, codeUsable) = optionalLocation("code")
        let (secondary, secondaryUsable) = optionalLocation("secondary")
        let (message, messageUsable) = optionalLocation("message")
        let (payload, payloadUsable) = optionalLocation("payload")
        usable = usable && codeUsable && secondaryUsable && messageUsable && payloadUsable
        var fallbackCodes: [ShapeDefinition.Location] = []
        if let value = members["fallbackCodes"] {
            if let list = array(value, what: "the \"fallbackCodes\" of \(label)") {
                for (index, item) in list.enumerated() {
                    if let location = location(item, what: "\"fallbackCodes\"[\(index)] of \(label)") {
                        fallbackCodes.append(location)
                    } else {
                        usable = false
                    }
                }
            } else {
                usable = false
            }
        }
        var defaultCode: ShapeDefinition.CodeValue? = nil
        if let value = members["defaultCode"] {
            if let code = self.defaultCode(value, codeType: codeType, label: label) {
                defaultCode = code
            } else {
                usable = false
            }
        }
        var namespace: ShapeDefinition.NamespaceSource? = nil
        if let value = members["namespace"] {
            if case .string("codePrefix") = value.value {
                namespace = .codePrefix
            } else if case .object = value.value, let location = location(value, what: "the \"namespace\" of \(label)")
            {
                namespace = .location(location)
            } else {
                if case .object = value.value {
                } else {
                    report(
                        value.offset,
                        "the \"namespace\" of \(label) must be a location ({\"path\": […]} or {\"header\": …}) or \"codePrefix\", found \(Self.kind(of: value.value))"
                    )
                }
                usable = false
            }
            if codeType != .string, kind != .grpc {
                report(
                    value.offset,
                    "\(label) has a \"namespace\" but its codes are integers (namespaces hold string codes: \"codeType\": \"string\")"
                )
                usable = false
            }
        }
        var failure: ShapeDefinition.Failure? = kind == .json ? nil : .status
        if let value = members["failure"] {
            if let rule = self.failure(value, label: label) { failure = rule } else { usable = false }
        } else if kind == .json {
            report(node.offset, "\(label) has no \"failure\" (\"status\", \"code\", {\"flag\": …} or {\"present\": …})")
            usable = false
        }
        if let value = members["defaultCode"], failure == .code {
            report(
                value.offset,
                "the \"defaultCode\" of \(label) can never apply: it is a failure's code, and a failure of this shape is a code other than the success code"
            )
            usable = false
        }
        switch kind {
        case .json:
            if members["code"] == nil {
                report(node.offset, "\(label) has no \"code\": a JSON shape says where its code is")
                usable = false
            }
        case .status, .grpc:
            for key in ["code", "fallbackCodes", "codeType", "defaultCode"] where members[key] != nil {
                report(
                    members[key]!.offset,
                    "\(label) is of kind \"\(kind.rawValue)\", whose protocol says where the code is: it has no \"\(key)\""
                )
                usable = false
            }
            if kind == .grpc, members["namespace"] != nil {
                report(
                    members["namespace"]!.offset,
                    "\(label) is of kind \"grpc\": its namespace is the ErrorInfo's \"domain\", not a \"namespace\"")
                usable = false
            }
        }
        guard usable, let failure else { return nil }
        let definition = ShapeDefinition(
            name: name, kind: kind, contentType: contentType, code: code, fallbackCodes: fallbackCodes,
            codeType: kind == .json ? codeType : .integer, defaultCode: defaultCode, namespace: namespace,
            secondary: secondary, message: message, payload: payload, failure: failure)
        return ShapeDraft(definition: definition, offset: node.offset, nameOffset: nameOffset)
    }

    /// A shape's `"defaultCode"`: an integer for a shape of integer codes, a non-empty string that
    /// fits the C string table (``StringCodeCheck/lengthProblem(of:_:)``) for one of string codes;
    /// `nil` (reported) else.
    private mutating func defaultCode(
        _ node: JSONNode, codeType: ShapeDefinition.CodeType, label: String
    ) -> ShapeDefinition.CodeValue? {
        let what = "the \"defaultCode\" of \(label)"
        switch codeType {
        case .integer:
            return integer(node, what: what).map { .integer($0) }
        case .string:
            guard let text = string(node, what: what) else { return nil }
            if text.isEmpty {
                report(node.offset, "\(what) is empty (a string code has at least one byte)")
                return nil
            }
            if let problem = StringCodeCheck.lengthProblem(of: text, what) {
                report(node.offset, problem)
                return nil
            }
            return .string(text)
        }
    }

    /// A `{"path": […]}` or `{"header": NAME}` object, or `nil` (reported).
    private mutating func location(_ node: JSONNode, what: String) -> ShapeDefinition.Location? {
        guard let members = members(of: node, what: what, allowed: ["path", "header"], required: []) else {
            return nil
        }
        switch (members["path"], members["header"]) {
        case (let path?, nil):
            guard let steps = array(path, what: "the \"path\" of \(what)") else { return nil }
            if steps.isEmpty {
                report(path.offset, "the \"path\" of \(what) is empty (a location has at least one step)")
                return nil
            }
            if steps.count > Self.maximumPathLength {
                report(
                    path.offset,
                    "the \"path\" of \(what) has \(steps.count) steps, at most \(Self.maximumPathLength) allowed")
                return nil
            }
            var result: [ShapeDefinition.PathStep] = []
            for step in steps {
                guard let parsed = pathStep(step, what: what) else { return nil }
                result.append(parsed)
            }
            return .body(result)
        case (nil, let header?):
            guard let name = string(header, what: "the \"header\" of \(what)") else { return nil }
            guard Self.isHeaderName(name) else {
                report(
                    header.offset, "the \"header\" of \(what), \(DisplayText.quoted(name)), is not an HTTP header name")
                return nil
            }
            return .header(name)
        case (nil, nil):
            report(node.offset, "\(what) has neither \"path\" nor \"header\"")
            return nil
        case (_?, _?):
            report(node.offset, "\(what) has both \"path\" and \"header\" (a location is one of them)")
            return nil
        }
    }

    private mutating func pathStep(_ node: JSONNode, what: String) -> ShapeDefinition.PathStep? {
        switch node.value {
        case .string(let key):
            return .key(key)
        case .number(let number):
            if let index = number.integer, index >= 0, index <= Int64(Int32.max) { return .index(Int(index)) }
            report(
                node.offset,
                "a step of the \"path\" of \(what) is not an array index (0 to \(Int32.max)), found \(DisplayText.bare(number.text, limit: 40))"
            )
            return nil
        case .object(let list) where list.count == 1:
            guard case .string(let value) = list[0].value.value else {
                report(
                    list[0].value.offset, "a step {\"KEY\": \"VALUE\"} of the \"path\" of \(what) needs a string VALUE")
                return nil
            }
            return .firstWhere(key: list[0].key, equals: value)
        default:
            report(
                node.offset,
                "a step of the \"path\" of \(what) must be a key (a string), an index (an integer) or {\"KEY\": \"VALUE\"}, found \(Self.kind(of: node.value))"
            )
            return nil
        }
    }

    private mutating func failure(_ node: JSONNode, label: String) -> ShapeDefinition.Failure? {
        let what = "the \"failure\" of \(label)"
        switch node.value {
        case .string("status"): return .status
        case .string("code"): return .code
        case .object:
            guard let members = members(of: node, what: what, allowed: ["flag", "failsWhen", "present"], required: [])
            else { return nil }
            if let flag = members["flag"], members["present"] == nil {
                guard let location = location(flag, what: "the \"flag\" of \(what)") else { return nil }
                guard let failsWhen = members["failsWhen"], case .bool(let value) = failsWhen.value else {
                    report(node.offset, "\(what) has a \"flag\" but no boolean \"failsWhen\"")
                    return nil
                }
                return .flag(location, failsWhen: value)
            }
            if let present = members["present"], members["flag"] == nil, members["failsWhen"] == nil {
                return location(present, what: "the \"present\" of \(what)").map { .present($0) }
            }
            report(node.offset, "\(what) must have \"flag\" (with \"failsWhen\") or \"present\", one of them")
            return nil
        default:
            report(
                node.offset,
                "\(what) must be \"status\", \"code\", {\"flag\": …, \"failsWhen\": …} or {\"present\": …}, found \(Self.describe(node.value))"
            )
            return nil
        }
    }

    /// A value for a message: a string's own text (quoted), else its kind.
    private static func describe(_ value: JSONValue) -> String {
        if case .string(let text) = value { return DisplayText.quoted(text) }
        return kind(of: value)
    }

    /// `type/subtype` in RFC 9110's token characters, without parameters.
    static func isMediaType(_ text: String) -> Bool {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy(isTokenByte) }
    }

    /// An HTTP field name: one or more token characters.
    static func isHeaderName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(isTokenByte)
    }

    /// RFC 9110's `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
