import SwiftErrCore

/// A ``ShapeDefinition`` of kind `json` made ready for reading many bodies (``ShapeReading``): its
/// body paths as bytes, made once, and how many steps each shares with the code's path, so that a
/// read walks the common beginning once (Google's `error.details[ErrorInfo]` for the code and its
/// namespace). A class of constants, so that a reader kept in an array is shared, not copied, for
/// each body.
package final class ShapeReader: Sendable {
    /// What a read looks up.
    package enum Parts: Sendable {
        /// Everything the shape locates.
        case all
        /// What classifying needs: the code, its namespace and whether the body is a failure
        /// (``ShapeReading/secondary``, ``ShapeReading/message`` and ``ShapeReading/payload``
        /// stay `nil`).
        case classification
    }

    /// A body path and the steps it shares with the code's path.
    private struct Located: Sendable {
        let path: JSONPath
        let shared: Int

        init?(_ location: ShapeDefinition.Location?, code: JSONPath?) {
            guard case .body(let steps)? = location else { return nil }
            let path = JSONPath(steps)
            self.path = path
            shared = code.map { path.sharedSteps(with: $0) } ?? 0
        }
    }

    /// How a failure is told, without the location a ``ShapeDefinition/Failure`` carries (that is
    /// ``failure``): read for each body without copying the shape.
    private enum Rule {
        case status, code
        case flag(failsWhen: Bool)
        case present
    }

    /// The shape's name, for a reader that names the shape of each body it reads.
    package let name: String
    /// Whether the shape's namespace is the code's prefix (``ShapeDefinition/NamespaceSource/codePrefix``).
    package let namespaceIsCodePrefix: Bool
    private let codeType: ShapeDefinition.CodeType
    private let rule: Rule
    private let code: JSONPath?
    /// Where else the code may be, in order.
    private let fallbacks: [Located]
    private let namespace: Located?
    private let secondary: Located?
    private let message: Located?
    private let payload: Located?
    /// The failure flag's or the failure object's path.
    private let failure: Located?
    /// The shape's ``ShapeDefinition/defaultCode`` as a read code.
    private let defaultCode: ShapeReading.Code?

    /// A reader for `shape`.
    /// - Throws: ``ShapeReading/Failure/notABodyShape(_:)`` when the shape is not of kind `json`
    ///   or locates no code.
    package init(_ shape: ShapeDefinition) throws(ShapeReading.Failure) {
        guard shape.kind == .json, let codeLocation = shape.code else { throw .notABodyShape(shape.kind) }
        name = shape.name
        namespaceIsCodePrefix = shape.namespace == .codePrefix
        codeType = shape.codeType
        if case .body(let steps) = codeLocation { code = JSONPath(steps) } else { code = nil }
        var fallbacks: [Located] = []
        for location in shape.fallbackCodes {
            if let located = Located(location, code: code) { fallbacks.append(located) }
        }
        self.fallbacks = fallbacks
        if case .location(let location)? = shape.namespace {
            namespace = Located(location, code: code)
        } else {
            namespace = nil
        }
        secondary = Located(shape.secondary, code: code)
        message = Located(shape.message, code: code)
        payload = Located(shape.payload, code: code)
        switch shape.defaultCode {
        case .none: defaultCode = nil
        case .integer(let value)?: defaultCode = .integer(value)
        case .string(let text)?: defaultCode = .string(Array(text.utf8))
        }
        switch shape.failure {
        case .flag(let location, let failsWhen):
            failure = Located(location, code: code)
            rule = .flag(failsWhen: failsWhen)
        case .present(let location):
            failure = Located(location, code: code)
            rule = .present
        case .status:
            failure = nil
            rule = .status
        case .code:
            failure = nil
            rule = .code
        }
    }

    /// Reads a body that ``ShapeReading/validate(_:)`` accepted.
    /// - Parameters:
    ///   - body: The response body, valid JSON.
    ///   - status: The HTTP status, or `nil` when it is not known (a line of a log): then a shape
    ///     whose failure is told by status counts a body with a code as a failure.
    ///   - successCode: The catalog's success code, for ``ShapeDefinition/Failure/code``.
    ///   - parts: What to look up.
    /// - Throws: ``ShapeReading/Failure`` when a value is of the wrong kind.
    package func read(
        validated body: UnsafeRawBufferPointer, status: Int?, successCode: Int64, parts: Parts = .all
    ) throws(ShapeReading.Failure) -> ShapeReading {
        do {
            return try withUnsafeTemporaryAllocation(of: Int.self, capacity: (code?.steps.count ?? 0) + 1) { trail in
                trail.initialize(repeating: -1)
                var walk = Walk(lookup: JSONPathLookup(body), trail: trail)
                return try read(&walk, status: status, successCode: successCode, parts: parts)
            }
        } catch let error as ShapeReading.Failure {
            throw error
        } catch let error as JSONSyntaxError {
            // The body was validated: a lookup cannot meet a syntax error.
            throw .notJSON(error)
        } catch {
            preconditionFailure("unreachable: \(error)")
        }
    }

    /// One body's lookup and the offsets the code's path got past (`trail[i]`: after `i` steps;
    /// -1 where it did not get).
    private struct Walk {
        var lookup: JSONPathLookup
        let trail: UnsafeMutableBufferPointer<Int>

        /// The value at `located`'s path, resuming after the steps it shares with the code's path
        /// when the code's walk got past them; `nil` when the body has no value there (the code's
        /// walk stopped within the shared steps: then this path has none either).
        mutating func find(_ located: Located) throws -> (offset: Int, kind: JSONValueKind)? {
            guard located.shared > 0, trail[0] >= 0 else { return try lookup.find(located.path) }
            guard trail[located.shared] >= 0 else { return nil }
            return try lookup.find(located.path, resuming: (located.shared, trail[located.shared]))
        }
    }

    private func read(_ walk: inout Walk, status: Int?, successCode: Int64, parts: Parts) throws -> ShapeReading {
        var reading = ShapeReading()
        if let code, let found = try walk.lookup.find(code, trail: walk.trail) {
            reading.code = try codeValue(found, in: &walk)
        }
        for fallback in fallbacks where reading.code == nil {
            if let found = try walk.find(fallback) { reading.code = try codeValue(found, in: &walk) }
        }
        if let namespace {
            reading.namespace = try string(namespace, what: "the namespace", in: &walk)
        }
        if parts == .all {
            if let secondary, let found = try walk.find(secondary) {
                switch found.kind {
                case .string: reading.secondary = try walk.lookup.string(at: found.offset)
                case .integer:
                    reading.secondary = (try walk.lookup.integer(at: found.offset)).map { Array(String($0).utf8) }
                case .null: break
                default: throw ShapeReading.Failure.wrongKind(what: "the second identifier", found: found.kind)
                }
            }
            if let message, let text = try string(message, what: "the message", in: &walk) {
                reading.message = String(decoding: text, as: UTF8.self)
            }
            if let payload, let found = try walk.find(payload) {
                reading.payload = found.offset..<(try walk.lookup.end(ofValueAt: found.offset))
            }
        }
        switch rule {
        case .status:
            reading.isFailure = status.map { $0 >= 400 } ?? (reading.code != nil)
        case .code:
            reading.isFailure = reading.code != nil && reading.code != .integer(successCode)
        case .flag(let failsWhen):
            guard let failure, let found = try walk.find(failure) else { throw ShapeReading.Failure.flagMissing }
            guard found.kind == .bool else {
                throw ShapeReading.Failure.wrongKind(what: "the failure flag", found: found.kind)
            }
            reading.isFailure = walk.lookup.bool(at: found.offset) == failsWhen
        case .present:
            if let failure, let found = try walk.find(failure) {
                reading.isFailure = found.kind != .null
            }
        }
        if reading.code == nil, reading.isFailure, let fixed = defaultCode {
            reading.code = fixed
            reading.codeIsDefault = true
        }
        return reading
    }

    /// The code found at a location: of the shape's type, or `nil` for `null`.
    private func codeValue(
        _ found: (offset: Int, kind: JSONValueKind), in walk: inout Walk
    ) throws -> ShapeReading.Code? {
        switch (codeType, found.kind) {
        case (.integer, .integer):
            guard let value = try walk.lookup.integer(at: found.offset) else {
                throw ShapeReading.Failure.codeOutOfRange
            }
            return .integer(value)
        case (.string, .string):
            return .string(try walk.lookup.string(at: found.offset))
        case (_, .null):
            return nil
        default:
            throw ShapeReading.Failure.wrongKind(what: "the code", found: found.kind)
        }
    }

    /// The string at `located`, or `nil` when the body has none there (or `null`).
    private func string(_ located: Located, what: String, in walk: inout Walk) throws -> [UInt8]? {
        guard let found = try walk.find(located) else { return nil }
        switch found.kind {
        case .string: return try walk.lookup.string(at: found.offset)
        case .null: return nil
        default: throw ShapeReading.Failure.wrongKind(what: what, found: found.kind)
        }
    }
}
