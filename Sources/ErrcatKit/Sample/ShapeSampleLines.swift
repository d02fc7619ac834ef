// The lines `errcat sample` writes in one of a catalog's JSON shapes, made once per run.

import SwiftErr

/// Why a shape cannot be sampled.
struct ShapeSampleProblem: Error {
    let message: String
}

/// Every line `errcat sample` writes in one JSON shape, as bytes: one per listed entry, success
/// lines around their payload id, and lines with unlisted, unknown and malformed codes.
struct ShapeSampleLines {
    /// A success line: `prefix`, the payload id, `suffix`.
    let success: (prefix: [UInt8], suffix: [UInt8])
    /// A line for each base entry the shape can carry: for a string shape, one with a string code
    /// in a namespace the shape can write (the catalog's own, where the shape has no place for one).
    let base: [[UInt8]]
    /// A line for each module entry the shape can carry.
    let module: [[UInt8]]
    /// Lines with a code a module owns but does not list (none when no module owns a range or,
    /// for a string shape, a namespace the shape can write).
    let unrecognised: [[UInt8]]
    /// Lines with a code no module owns.
    let unknown: [[UInt8]]
    /// Lines the shape cannot read: a code of the other kind, truncated JSON, an HTML page, an
    /// empty line.
    let invalid: [[UInt8]]

    /// The lines of `shape` (of kind `json`) for `catalog`, messages in `language`.
    /// - Throws: ``ShapeSampleProblem`` when the shape's paths cannot be written together (two
    ///   of them put values in one place) or locate the code in a header.
    init(catalog: Catalog, shape: ShapeDefinition, language: Language) throws(ShapeSampleProblem) {
        guard shape.kind == .json, case .body(let codePath)? = shape.code else {
            throw ShapeSampleProblem(message: "shape '\(shape.name)' has no code in the body to write")
        }
        let definition = catalog.definition
        let isString = shape.codeType == .string
        // Where a string's namespace goes: a place in the body, or before the code. A shape with
        // neither carries only the strings of the catalog's own namespace.
        let namespaced: Bool
        switch shape.namespace {
        case .location(.body)?, .codePrefix?: namespaced = true
        default: namespaced = false
        }

        /// The line of one failure: its code (JSON text), its namespace, its message.
        func failureLine(code: [UInt8], namespace: String?, message: String?) throws(ShapeSampleProblem) -> [UInt8] {
            var document = SampleNode.empty
            var fits = document.insert(codePath[...], code)
            if let namespace, case .location(.body(let path))? = shape.namespace {
                fits = fits && document.insert(path[...], SampleNode.json(string: namespace))
            }
            if let message, case .body(let path)? = shape.message {
                fits = fits && document.insert(path[...], SampleNode.json(string: message))
            }
            switch shape.failure {
            case .flag(.body(let path), let failsWhen):
                fits = fits && document.insert(path[...], Array((failsWhen ? "true" : "false").utf8))
            case .present(.body(let path)):
                // The failure's object is there when the code is inside it; otherwise put one.
                if !document.has(path[...]) { fits = fits && document.insert(path[...], Array("{}".utf8)) }
            default:
                break
            }
            guard fits else {
                throw ShapeSampleProblem(message: "shape '\(shape.name)': two of its paths put values in one place")
            }
            var out = OutputBuffer(descriptor: -1, threshold: Int.max)
            document.write(into: &out)
            return out.bytes
        }

        /// A string code as the shape writes it: with its namespace first for a prefix namespace.
        func stringCode(_ string: String, namespace: String?) -> [UInt8] {
            if case .codePrefix? = shape.namespace { return SampleNode.json(string: (namespace ?? "") + string) }
            return SampleNode.json(string: string)
        }

        func message(of code: Int64) -> String? {
            catalog.classify(code).entryIndex.flatMap { catalog.entryMessage(at: $0, in: language) }
        }

        func line(_ entry: EntryDefinition) throws(ShapeSampleProblem) -> [UInt8]? {
            if isString {
                guard let string = entry.string, namespaced || (entry.namespace ?? "").isEmpty else { return nil }
                return try failureLine(
                    code: stringCode(string, namespace: entry.namespace), namespace: entry.namespace,
                    message: message(of: entry.code))
            }
            return try failureLine(
                code: Array(String(entry.code).utf8), namespace: nil, message: message(of: entry.code))
        }

        var base: [[UInt8]] = []
        for entry in definition.base { if let line = try line(entry) { base.append(line) } }
        var module: [[UInt8]] = []
        for entry in definition.modules.flatMap(\.codes) { if let line = try line(entry) { module.append(line) } }
        self.base = base
        self.module = module

        var unrecognised: [[UInt8]] = []
        var unknown: [[UInt8]] = []
        if isString {
            for space in definition.modules.flatMap(\.namespaces) where namespaced {
                var string = "unlisted_code"
                while catalog.classify(stringBytes: Array(string.utf8), namespace: Array(space.utf8)).isExact {
                    string += "_"
                }
                unrecognised.append(
                    try failureLine(code: stringCode(string, namespace: space), namespace: space, message: nil))
            }
            var string = "not_a_listed_code"
            while catalog.classify(stringBytes: Array(string.utf8), namespace: []).tier != .unknown { string += "_" }
            unknown.append(try failureLine(code: SampleNode.json(string: string), namespace: nil, message: nil))
        } else {
            for range in definition.modules.flatMap(\.ranges) {
                if let code = stride(from: range.lowerBound, through: range.upperBound, by: 1).prefix(1000).first(
                    where: { !catalog.classify($0).isExact })
                {
                    unrecognised.append(try failureLine(code: Array(String(code).utf8), namespace: nil, message: nil))
                }
            }
            for code in SampleWriter.unknownCodes where catalog.classify(code).tier == .unknown {
                unknown.append(try failureLine(code: Array(String(code).utf8), namespace: nil, message: nil))
            }
        }
        self.unrecognised = unrecognised
        self.unknown = unknown

        // The success line: no code (or the success code, where the code tells failure), the flag
        // saying success, and an id to vary.
        let idMarker = Array("\u{1}".utf8)
        var document = SampleNode.empty
        var fits = true
        if case .flag(.body(let path), let failsWhen) = shape.failure {
            fits = document.insert(path[...], Array((failsWhen ? "false" : "true").utf8))
        }
        if case .code = shape.failure, !isString {
            fits = fits && document.insert(codePath[...], Array(String(definition.success.code).utf8))
        }
        let idKey = ["id", "result_id", "sample_id"].first { key in
            var probe = document
            return probe.insert([.key(key)][...], idMarker)
        }
        guard fits, let idKey, document.insert([.key(idKey)][...], idMarker) else {
            throw ShapeSampleProblem(message: "shape '\(shape.name)': no success body can be written")
        }
        var out = OutputBuffer(descriptor: -1, threshold: Int.max)
        document.write(into: &out)
        let marker = out.bytes.firstIndex(of: 1)!
        success = (Array(out.bytes[..<marker]), Array(out.bytes[(marker + 1)...]))

        var invalid = [Array("<html><body><h1>502 Bad Gateway</h1></body></html>".utf8), []]
        var wrongKind = SampleNode.empty
        if wrongKind.insert(codePath[...], Array((isString ? "42" : "\"42\"").utf8)) {
            var line = OutputBuffer(descriptor: -1, threshold: Int.max)
            wrongKind.write(into: &line)
            invalid.append(line.bytes)
            invalid.append(Array(line.bytes.prefix(line.bytes.count / 2)))  // truncated
        }
        self.invalid = invalid
    }
}
