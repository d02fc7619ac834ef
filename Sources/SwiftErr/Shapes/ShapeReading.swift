import SwiftErrCore

/// What a response body says in one ``ShapeDefinition`` of kind `json`: its code (an integer, or a
/// string in a namespace), the second identifier, the message, where the payload is, and whether
/// it is a failure.
///
/// Reading validates the whole body (RFC 8259, UTF-8, nesting at most ``JSONScanner/depthLimit``)
/// before it looks anything up, so a body with trailing garbage or a bad escape after the code is
/// refused, never half read. A value the shape names that the body does not have (or has as
/// `null`) is `nil`; one of the wrong kind is an error naming the part and what was found. Header
/// locations are not in a body: reading leaves them `nil`, for the caller that has the headers.
package struct ShapeReading: Sendable, Hashable {
    /// A response's code as the body writes it.
    package enum Code: Sendable, Hashable {
        /// An integer code.
        case integer(Int64)
        /// A string code, as unescaped UTF-8 bytes.
        case string([UInt8])
    }

    /// Why a body cannot be read in a shape.
    package enum Failure: Error, Sendable, Hashable {
        /// The body is not one JSON document.
        case notJSON(JSONSyntaxError)
        /// The shape is not of kind `json`: its protocol carries the code, not a body.
        case notABodyShape(ShapeDefinition.Kind)
        /// A value is of another kind than the shape says (the code, its namespace, the message, a
        /// flag): `what` names the part, `found` what the body has.
        case wrongKind(what: String, found: JSONValueKind)
        /// An integer code outside the signed 64-bit range.
        case codeOutOfRange
        /// The shape's failure flag is missing.
        case flagMissing
    }

    /// The code: the first the body has where the shape says (``ShapeDefinition/code``, then
    /// ``ShapeDefinition/fallbackCodes``), else, for a failure, the shape's
    /// ``ShapeDefinition/defaultCode``; `nil` when there is none.
    package var code: Code?
    /// Whether ``code`` is the shape's ``ShapeDefinition/defaultCode`` rather than read from the
    /// body (a reader choosing among shapes prefers one that found a code in the body).
    package var codeIsDefault: Bool
    /// A string code's namespace: read at the shape's location; `nil` when the shape has none, the
    /// body has none there, or it is the code's prefix (``ShapeDefinition/NamespaceSource/codePrefix``:
    /// the catalog's namespaces decide).
    package var namespace: [UInt8]?
    /// The second identifier (a string's bytes, or an integer's digits), or `nil`.
    package var secondary: [UInt8]?
    /// The server's message, or `nil`.
    package var message: String?
    /// The payload's bytes in the body, or `nil`.
    package var payload: Range<Int>?
    /// Whether the body is a failure by the shape's rule.
    package var isFailure: Bool

    /// A reading with nothing found yet, not a failure: ``ShapeReader`` fills it in.
    init() {
        code = nil
        codeIsDefault = false
        namespace = nil
        secondary = nil
        message = nil
        payload = nil
        isFailure = false
    }

    /// Reads `body` in `shape`.
    /// - Parameters:
    ///   - body: The response body.
    ///   - shape: A shape of kind `json`.
    ///   - status: The HTTP status, or `nil` when it is not known (a line of a log): then a shape
    ///     whose failure is told by status counts a body with a code as a failure.
    ///   - successCode: The catalog's success code, for ``ShapeDefinition/Failure/code``.
    /// - Throws: ``Failure`` when the body is not JSON or a value is of the wrong kind.
    package init(
        _ body: UnsafeRawBufferPointer, shape: ShapeDefinition, status: Int?, successCode: Int64
    ) throws(Failure) {
        guard shape.kind == .json else { throw .notABodyShape(shape.kind) }
        try Self.validate(body)
        try self.init(validated: body, shape: shape, status: status, successCode: successCode)
    }

    /// Checks that `body` is one JSON document (RFC 8259, UTF-8, nesting within the scanner's
    /// limit), once for any number of shapes it is then read in with ``init(validated:shape:status:successCode:)``.
    /// - Throws: ``Failure/notJSON(_:)`` naming the first problem and its byte.
    package static func validate(_ body: UnsafeRawBufferPointer) throws(Failure) {
        var scanner = JSONScanner(body)
        do throws(JSONSyntaxError) {
            scanner.skipByteOrderMark()
            scanner.skipWhitespace()
            try scanner.skipValue(depth: 0)
            scanner.skipWhitespace()
            guard scanner.atEnd else { throw scanner.fail("the end of the body after one value") }
        } catch {
            throw .notJSON(error)
        }
    }

    /// Reads a body that ``validate(_:)`` accepted in `shape`, as ``init(_:shape:status:successCode:)``
    /// does without checking the body again. To read many bodies in one shape, make its
    /// ``ShapeReader`` once.
    package init(
        validated body: UnsafeRawBufferPointer, shape: ShapeDefinition, status: Int?, successCode: Int64
    ) throws(Failure) {
        self = try ShapeReader(shape).read(validated: body, status: status, successCode: successCode)
    }

    /// The classification of what was read, with `catalog`: an integer code as ``Catalog/classify(_:)``
    /// gives it; a string code as ``Catalog/classify(string:namespace:)`` gives it in the namespace
    /// read, or, for a shape whose namespace is the code's prefix, in the longest of the catalog's
    /// namespaces that the code starts with (the rest is the string code); a body that is not a
    /// failure is the success code's; a failure without a code is unknown.
    /// - Parameters:
    ///   - catalog: The catalog the shape belongs to.
    ///   - shape: The shape the body was read in.
    package func classification(in catalog: Catalog, shape: ShapeDefinition) -> Classification {
        classification(in: catalog, stringKey: stringKey(in: catalog, shape: shape))
    }

    /// ``classification(in:shape:)`` with the string code's pair already made by
    /// ``stringKey(in:shape:)`` (for a caller that keeps the pair too).
    package func classification(
        in catalog: Catalog, stringKey key: (namespace: [UInt8], string: [UInt8])?
    ) -> Classification {
        guard isFailure else { return catalog.classify(catalog.successCode) }
        switch code {
        case .none:
            return .unknown
        case .integer(let value):
            return catalog.classify(value)
        case .string:
            return catalog.classify(stringBytes: key!.string, namespace: key!.namespace)
        }
    }

    /// The (namespace, string) pair a failure's string code is looked up by: the namespace read
    /// (empty: the catalog's own) and the code; for a shape whose namespace is the code's prefix,
    /// the longest of the catalog's namespaces the code starts with and the rest of the code (the
    /// whole code in the catalog's own namespace when none is a prefix). `nil` for an integer
    /// code, no code, or a body that is not a failure. This is the pair C code classifies with
    /// `errcore_classify_string()`.
    package func stringKey(in catalog: Catalog, shape: ShapeDefinition) -> (namespace: [UInt8], string: [UInt8])? {
        stringKey(in: catalog, namespaceIsCodePrefix: shape.namespace == .codePrefix)
    }

    /// ``stringKey(in:shape:)`` for a shape whose namespace is, or is not, the code's prefix
    /// (``ShapeReader/namespaceIsCodePrefix``).
    package func stringKey(
        in catalog: Catalog, namespaceIsCodePrefix: Bool
    ) -> (namespace: [UInt8], string: [UInt8])? {
        guard isFailure, case .string(let bytes) = code else { return nil }
        if namespaceIsCodePrefix {
            guard
                let prefix = catalog.stringNamespaces.filter({ bytes.starts(with: $0) }).max(by: { $0.count < $1.count }
                )
            else { return ([], bytes) }
            return (prefix, Array(bytes[prefix.count...]))
        }
        return (namespace ?? [], bytes)
    }
}
