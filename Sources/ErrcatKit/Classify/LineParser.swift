// One input line of `classify` → a code, or the reason the line is invalid.

import SwiftErr
import SwiftErrCatalogFile

/// What `classify` expects on each line.
enum LineFormat: String {
    /// `{` starts a JSON envelope, anything else must be a plain integer.
    case auto
    /// Plain integer codes only.
    case codes
    /// JSON envelopes only.
    case jsonl
}

/// Why a line could not be classified.
enum LineProblem {
    case empty
    case notACode
    case fractionalCode
    case codeOutOfRange
    case envelope(EnvelopeError)
    case tooLong(length: UInt64, limit: Int)
    /// Two or more shapes (named) each find a code in the line.
    case ambiguousShapes([String])
    /// No shape can read the line: the first shape's reason, and its name when it is the only one.
    case shape(ShapeReading.Failure, String?)

    /// A one-line English reason.
    var description: String {
        switch self {
        case .empty: return "empty line"
        case .notACode: return "neither an integer code nor a JSON envelope"
        case .fractionalCode: return "the code is a number with a fraction or exponent, not an integer"
        case .codeOutOfRange: return "the code is outside the signed 64-bit integer range"
        case .envelope(let error): return "invalid envelope: \(error.description)"
        case .tooLong(let length, let limit):
            return "line of \(length) bytes is longer than the limit of \(limit) bytes (--max-line-bytes)"
        case .ambiguousShapes(let names):
            return
                "ambiguous: shapes \(names.map { DisplayText.quoted($0) }.joined(separator: " and ")) each find a code (--shape NAME chooses one)"
        case .shape(let failure, let name):
            let which = name.map { "in shape \(DisplayText.quoted($0))" } ?? "in any shape"
            switch failure {
            case .notJSON(let error):
                return "not readable \(which): invalid JSON at byte \(error.offset): \(error.message)"
            case .notABodyShape(let kind): return "not readable \(which): a \(kind.rawValue) shape has no body"
            case .wrongKind(let what, let found): return "not readable \(which): \(what) is \(found.phrase)"
            case .codeOutOfRange: return "not readable \(which): the code is outside the signed 64-bit integer range"
            case .flagMissing: return "not readable \(which): the failure flag is missing"
            }
        }
    }

    /// The summary's category for this reason.
    var category: InvalidCategory {
        switch self {
        case .empty: return .empty
        case .notACode: return .notACode
        case .fractionalCode: return .codeNotInteger
        case .codeOutOfRange: return .codeOutOfRange
        case .tooLong: return .tooLong
        case .ambiguousShapes: return .ambiguousShape
        case .shape(let failure, _):
            switch failure {
            case .notJSON(let error):
                switch error.reason {
                case .invalidUTF8: return .invalidUTF8
                case .nestingTooDeep: return .nestingTooDeep
                case .expected: return .malformedJSON
                }
            case .codeOutOfRange: return .codeOutOfRange
            case .wrongKind, .notABodyShape: return .wrongKind
            case .flagMissing: return .missingFlag
            }
        case .envelope(let error):
            switch error.reason {
            case .malformedJSON: return .malformedJSON
            case .invalidUTF8: return .invalidUTF8
            case .notAnObject: return .notAnObject
            case .missingCode: return .missingCode
            case .codeNotInteger: return .codeNotInteger
            case .codeOutOfRange: return .codeOutOfRange
            case .messageNotString: return .messageNotString
            case .duplicateKey: return .duplicateKey
            case .nestingTooDeep: return .nestingTooDeep
            }
        }
    }
}

/// The outcome of parsing one line.
enum ParsedLine {
    case code(Int64)
    case problem(LineProblem)
}

/// Parses lines in one format with one set of envelope keys. Allocates nothing for a valid
/// line: an envelope is validated by ``ResponseEnvelope/code(in:keys:)``, which skips making
/// the message string.
///
/// A line may start with a UTF-8 byte order mark (as the first line of a file saved by some
/// editors does); blanks (space, tab) around a plain code are ignored. Byte offsets in envelope
/// errors count from the start of the line, byte order mark and blanks included.
struct LineParser {
    let format: LineFormat
    let keys: EnvelopeKeys
    private let matcher: EnvelopeKeyMatcher

    init(format: LineFormat, keys: EnvelopeKeys) {
        self.format = format
        self.keys = keys
        matcher = EnvelopeKeyMatcher(keys)
    }

    @inline(__always)
    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09
    }

    /// Parses one line (without its newline).
    @inline(__always)
    func parse(_ line: UnsafeRawBufferPointer) -> ParsedLine {
        let count = line.count
        guard count > 0, let base = line.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            return .problem(.empty)
        }
        // The usual envelope line starts with '{' and the usual code line with a digit.
        let first = base[0]
        if format != .codes && first == UInt8(ascii: "{") {
            return envelope(line)
        }
        if format != .jsonl && first &- UInt8(ascii: "0") < 10 && !Self.isBlank(base[count - 1]) {
            return code(line)
        }
        return parseUnusual(line)
    }

    /// Lines that start with a byte order mark or a blank, or end with a blank, or are empty.
    private func parseUnusual(_ line: UnsafeRawBufferPointer) -> ParsedLine {
        var start = 0
        var end = line.count
        if end >= 3 && line[0] == 0xEF && line[1] == 0xBB && line[2] == 0xBF { start = 3 }
        while start < end && Self.isBlank(line[start]) { start += 1 }
        while end > start && Self.isBlank(line[end - 1]) { end -= 1 }
        if start == end { return .problem(.empty) }
        switch format {
        case .jsonl: return envelope(line)
        case .auto where line[start] == UInt8(ascii: "{"): return envelope(line)
        default: return code(UnsafeRawBufferPointer(rebasing: line[start..<end]))
        }
    }

    @inline(__always)
    private func envelope(_ line: UnsafeRawBufferPointer) -> ParsedLine {
        do {
            return .code(try ResponseEnvelope.code(in: line, keys: matcher))
        } catch {
            return .problem(.envelope(error))
        }
    }

    @inline(__always)
    private func code(_ text: UnsafeRawBufferPointer) -> ParsedLine {
        switch IntegerScan.scan(text) {
        case .value(let code): return .code(code)
        case .outOfRange: return .problem(.codeOutOfRange)
        case .notInteger: return .problem(.fractionalCode)
        case .notANumber: return .problem(.notACode)
        }
    }
}
