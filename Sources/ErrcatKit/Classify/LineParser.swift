// One input line of `classify` → a code, or the reason the line is invalid.

import SwiftErr

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
        }
    }

    /// A short category for the summary's counts of invalid lines.
    var category: String {
        switch self {
        case .empty: return "empty line"
        case .notACode: return "not a code"
        case .fractionalCode: return "code not an integer"
        case .codeOutOfRange: return "code out of range"
        case .tooLong: return "line too long"
        case .envelope(let error):
            switch error.reason {
            case .malformedJSON: return "malformed JSON"
            case .invalidUTF8: return "invalid UTF-8"
            case .notAnObject: return "envelope not an object"
            case .missingCode: return "missing code"
            case .codeNotInteger: return "code not an integer"
            case .codeOutOfRange: return "code out of range"
            case .messageNotString: return "message not a string"
            case .duplicateKey: return "duplicate key"
            case .nestingTooDeep: return "nesting too deep"
            }
        }
    }
}

/// The outcome of parsing one line.
enum ParsedLine {
    case code(Int64)
    case problem(LineProblem)
}

/// Parses lines in one format with one set of envelope keys. Allocates nothing for a
/// plain code; an envelope is read by ``ResponseEnvelope/parse(_:keys:)``.
struct LineParser {
    let format: LineFormat
    let keys: EnvelopeKeys

    @inline(__always)
    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09
    }

    /// Parses one line (without its newline).
    func parse(_ line: UnsafeRawBufferPointer) -> ParsedLine {
        var start = 0
        var end = line.count
        while start < end && LineParser.isBlank(line[start]) { start += 1 }
        while end > start && LineParser.isBlank(line[end - 1]) { end -= 1 }
        if start == end { return .problem(.empty) }
        let trimmed = UnsafeRawBufferPointer(rebasing: line[start..<end])
        let envelope: Bool
        switch format {
        case .auto:
            let first = trimmed[0]
            // A UTF-8 byte order mark may precede the object.
            envelope =
                first == UInt8(ascii: "{") || (first == 0xEF && trimmed.count > 3 && trimmed[3] == UInt8(ascii: "{"))
        case .codes: envelope = false
        case .jsonl: envelope = true
        }
        if envelope {
            do {
                return .code(try ResponseEnvelope.parse(trimmed, keys: keys).code)
            } catch {
                return .problem(.envelope(error))
            }
        }
        switch IntegerScan.scan(trimmed) {
        case .value(let code): return .code(code)
        case .outOfRange: return .problem(.codeOutOfRange)
        case .notInteger: return .problem(.fractionalCode)
        case .notANumber: return .problem(.notACode)
        }
    }
}
